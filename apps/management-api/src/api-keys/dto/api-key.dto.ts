import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { NameField, Omittable, Role, ROLES } from '@sesame/common';
import { ApiKeyWithCreator } from '@sesame/entities';

export class CreateApiKeyDto {
  @NameField({ required: true, example: 'CI deploys' })
  name: string;

  @ApiPropertyOptional({
    enum: ROLES,
    description:
      'What the key may do: no higher than its creator’s role (an organization key: admin or viewer). Without it: admin, or the creator’s role where that is lower.',
  })
  @Omittable()
  @IsIn(ROLES)
  role?: Role;
}

export class ApiKeyCreatorResponse {
  @ApiProperty({ enum: ['member', 'api_key'] })
  type: 'member' | 'api_key';

  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'ada@example.com', description: 'The member’s address or the key’s name.' })
  name: string;
}

export class ApiKeyResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'CI deploys' })
  name: string;

  @ApiProperty({ example: 'sk_Xb3kP9q', description: 'First characters of the key, to tell keys apart.' })
  prefix: string;

  @ApiProperty({ format: 'uuid', type: String, nullable: true, description: 'Set for an organization key; null for a tenant key.' })
  organizationId: string | null;

  @ApiProperty({
    enum: ROLES,
    description: 'What the key may do: a viewer reads everything but secrets, an admin also changes things, an owner also manages members.',
  })
  role: Role;

  @ApiProperty({
    type: ApiKeyCreatorResponse,
    nullable: true,
    description: 'Who created the key; null for the first key of a tenant (the platform key made it) and for keys whose creator is gone.',
  })
  createdBy: ApiKeyCreatorResponse | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastUsedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  revokedAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  static from(key: ApiKeyWithCreator): ApiKeyResponse {
    return {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      organizationId: key.organizationId,
      role: key.role,
      createdBy: key.createdBy,
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      revokedAt: key.revokedAt?.toISOString() ?? null,
      createdAt: key.createdAt.toISOString(),
    };
  }
}

export class CreatedApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({ example: 'sk_Xb3kP9qL...', description: 'The key. It is shown only in this response; store it now.' })
  key: string;

  static withKey(created: ApiKeyWithCreator, key: string): CreatedApiKeyResponse {
    return { ...ApiKeyResponse.from(created), key };
  }
}
