import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsString, Max, Min } from 'class-validator';
import { NameField, Omittable } from '@sesame/common';
import { Organization, PASSKEY_POLICIES, PasskeyPolicy } from '@sesame/entities';

export const MAX_WHITELIST_DOMAINS = 50;

const WHITELIST_DOC: ApiPropertyOptions = {
  type: [String],
  maxItems: MAX_WHITELIST_DOMAINS,
  example: ['https://app.example.com', 'https://*.example.org', 'http://localhost:4000'],
  description:
    'Origins that may receive logins. Normalised: lower-case, IDN to punycode, default port dropped. ' +
    '`https://*.example.com` allows direct subdomains. http only for loopback hosts; no paths, queries, fragments or credentials.',
};
// No `default`: an update without it keeps the organization's value (a documented default would be
// sent by tools that fill in defaults, e.g. Swagger UI's Try it out).
const LINK_TTL_DOC: ApiPropertyOptions = {
  minimum: 60,
  maximum: 86400,
  description: 'Lifetime of e-mailed login links, in seconds: 600 when an organization is created without it.',
};

const PASSKEYS_DOC: ApiPropertyOptions = {
  enum: PASSKEY_POLICIES,
  description:
    'Passkeys on the hosted login page: `off`; `offered` (sign in with a passkey, and after an e-mailed login one screen offers to create one, skipped in one click; the default); ' +
    '`required` (that screen has no skip, for users without a passkey; e-mailed logins keep working). See docs/passkeys.md.',
};

/** The settings creation and update both accept, each optional. */
class OrganizationSettingsDto {
  @ApiPropertyOptional(WHITELIST_DOC)
  @Omittable()
  @IsArray()
  @ArrayMaxSize(MAX_WHITELIST_DOMAINS)
  @IsString({ each: true })
  whitelistDomains?: string[];

  @ApiPropertyOptional({ description: 'After a login, also sign the user in on every whitelist domain (default false).' })
  @Omittable()
  @IsBoolean()
  autologin?: boolean;

  @ApiPropertyOptional(LINK_TTL_DOC)
  @Omittable()
  @IsInt()
  @Min(60)
  @Max(86400)
  linkTtlSeconds?: number;

  @ApiPropertyOptional(PASSKEYS_DOC)
  @Omittable()
  @IsIn(PASSKEY_POLICIES)
  passkeys?: PasskeyPolicy;
}

export class CreateOrganizationDto extends OrganizationSettingsDto {
  @NameField({ required: true, example: 'Acme Europe' })
  name: string;
}

export class UpdateOrganizationDto extends OrganizationSettingsDto {
  @NameField({ required: false, example: 'Acme Europe' })
  name?: string;
}

export class OrganizationResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Acme Europe' })
  name: string;

  @ApiProperty({ format: 'uuid' })
  tenantId: string;

  @ApiProperty({ type: [String], example: ['https://app.example.com'] })
  whitelistDomains: string[];

  @ApiProperty()
  autologin: boolean;

  @ApiProperty({ example: 600 })
  linkTtlSeconds: number;

  @ApiProperty({ enum: PASSKEY_POLICIES, example: 'offered' })
  passkeys: PasskeyPolicy;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  static from(organization: Organization): OrganizationResponse {
    return {
      id: organization.id,
      name: organization.name,
      tenantId: organization.tenantId,
      whitelistDomains: organization.whitelistDomains,
      autologin: organization.autologin,
      linkTtlSeconds: organization.linkTtlSeconds,
      passkeys: organization.passkeys,
      createdAt: organization.createdAt.toISOString(),
      updatedAt: organization.updatedAt.toISOString(),
    };
  }
}
