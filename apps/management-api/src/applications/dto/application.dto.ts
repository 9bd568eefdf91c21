import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsString, Max, Min, ValidateIf } from 'class-validator';
import { APPLICATION_TYPES, ApplicationType, NameField, Omittable } from '@sesame/common';
import { Application } from '@sesame/entities';

export const MAX_CALLBACK_URLS = 20;

const CALLBACK_URLS_DOC: ApiPropertyOptions = {
  type: [String],
  maxItems: MAX_CALLBACK_URLS,
  example: ['https://app.example.com/auth/callback'],
  description:
    'Exact redirect URIs. https; http only on loopback (desktop: 127.0.0.1 or [::1], any port at login); ' +
    'reverse-domain custom schemes (com.example.app:/callback) only for android and ios; no fragments or credentials. ' +
    'Web apps without callback URLs accept any redirect_uri on a whitelist domain.',
};

/** The id_token encryptions an application may choose (OpenID Connect Dynamic Registration's `id_token_encrypted_response_alg`). */
export const ID_TOKEN_ENCRYPTION_ALGORITHMS = ['dir'] as const;
export type IdTokenEncryptionAlgorithm = (typeof ID_TOKEN_ENCRYPTION_ALGORITHMS)[number];

const ID_TOKEN_ENCRYPTION_DOC: ApiPropertyOptions = {
  enum: ID_TOKEN_ENCRYPTION_ALGORITHMS,
  nullable: true,
  description:
    "As OpenID Connect Dynamic Registration's `id_token_encrypted_response_alg`: `dir` encrypts the id_token (JWE, enc A256GCM) with the SHA-256 of the client secret; " +
    '`null` sends the signed JWT only, which standard relying parties (openid-client, oauth4webapi) read without configuration. ' +
    'Web apps: `dir` unless given; native apps have no secret, so always `null`.',
};

/** Fields that creation and update both accept. */
class ApplicationSettingsDto {
  @ApiPropertyOptional(CALLBACK_URLS_DOC)
  @Omittable()
  @IsArray()
  @ArrayMaxSize(MAX_CALLBACK_URLS)
  @IsString({ each: true })
  callbackUrls?: string[];

  @ApiPropertyOptional(ID_TOKEN_ENCRYPTION_DOC)
  @ValidateIf((_: object, value: unknown) => value !== undefined && value !== null)
  @IsIn(ID_TOKEN_ENCRYPTION_ALGORITHMS)
  idTokenEncryptedResponseAlg?: IdTokenEncryptionAlgorithm | null;
}

export class CreateApplicationDto extends ApplicationSettingsDto {
  @NameField({ required: true, example: 'Acme web shop' })
  name: string;

  @ApiProperty({ enum: APPLICATION_TYPES, description: 'web apps get a client secret; android, ios and desktop apps use PKCE instead.' })
  @IsIn(APPLICATION_TYPES)
  type: ApplicationType;
}

export class UpdateApplicationDto extends ApplicationSettingsDto {
  @NameField({ required: false, example: 'Acme web shop' })
  name?: string;
}

export class ApplicationSummary {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  organizationId: string;

  @ApiProperty({ example: 'Acme web shop' })
  name: string;

  @ApiProperty({ enum: APPLICATION_TYPES })
  type: ApplicationType;

  @ApiProperty({ example: 'q0mM9bX4c2cJ7h1kZ3uYtA', description: 'The client_id of OAuth requests.' })
  clientId: string;

  @ApiProperty({ type: [String] })
  callbackUrls: string[];

  @ApiProperty({ ...ID_TOKEN_ENCRYPTION_DOC, type: String })
  idTokenEncryptedResponseAlg: IdTokenEncryptionAlgorithm | null;

  @ApiProperty({
    enum: ['A256GCM'],
    nullable: true,
    type: String,
    description: "The id_token's content encryption when `idTokenEncryptedResponseAlg` is `dir` (`id_token_encrypted_response_enc`).",
  })
  idTokenEncryptedResponseEnc: 'A256GCM' | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Until when the secret replaced by the last rotation still authenticates (null: no previous secret works).',
  })
  previousSecretExpiresAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  static from(application: Application): ApplicationSummary {
    return {
      id: application.id,
      organizationId: application.organizationId,
      name: application.name,
      type: application.type,
      clientId: application.clientId,
      callbackUrls: application.callbackUrls,
      idTokenEncryptedResponseAlg: application.idTokenEncryptedResponseAlg,
      idTokenEncryptedResponseEnc: application.idTokenEncryptedResponseAlg ? 'A256GCM' : null,
      previousSecretExpiresAt: application.previousClientSecretExpiresAt?.toISOString() ?? null,
      createdAt: application.createdAt.toISOString(),
      updatedAt: application.updatedAt.toISOString(),
    };
  }
}

export const MAX_ROTATION_OVERLAP_SECONDS = 30 * 24 * 3600;

export class RotateSecretDto {
  @ApiPropertyOptional({
    minimum: 0,
    maximum: MAX_ROTATION_OVERLAP_SECONDS,
    example: 86400,
    description:
      'How long the replaced secret keeps working, in seconds: 0 stops it at once (a leaked secret). Default CLIENT_SECRET_ROTATION_OVERLAP_SECONDS (86400).',
  })
  @Omittable()
  @IsInt()
  @Min(0)
  @Max(MAX_ROTATION_OVERLAP_SECONDS)
  overlapSeconds?: number;

  @ApiPropertyOptional({ default: false, description: 'Also revoke every access token of the application now (its users sign in again).' })
  @Omittable()
  @IsBoolean()
  revokeAccessTokens?: boolean;
}

/** The integration data of one application; its secret only where the route says so. */
export class ApplicationResponse extends ApplicationSummary {
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The client secret of a web app: answered when the application is created, when its secret is rotated, and by a read with `include=secret`; null otherwise, and for native apps, which have none.',
  })
  clientSecret: string | null;
}

export class ApplicationQuery {
  @ApiPropertyOptional({
    enum: ['secret'],
    description: '`secret`: answer the client secret too (admins, owners and admin keys; audited as `application.secret_read`).',
  })
  @Omittable()
  @IsIn(['secret'])
  include?: 'secret';
}
