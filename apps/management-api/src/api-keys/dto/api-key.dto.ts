import { ApiProperty } from '@nestjs/swagger';
import { NameField } from '@sesame/common';
import { ApiKey } from '@sesame/entities';

export class CreateApiKeyDto {
  @NameField({ required: true, example: 'CI deploys' })
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

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastUsedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  revokedAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  static from(key: ApiKey): ApiKeyResponse {
    return {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      organizationId: key.organizationId,
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      revokedAt: key.revokedAt?.toISOString() ?? null,
      createdAt: key.createdAt.toISOString(),
    };
  }
}

export class CreatedApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({ example: 'sk_Xb3kP9qL...', description: 'The key. It is shown only in this response; store it now.' })
  key: string;

  static withKey(entity: ApiKey, key: string): CreatedApiKeyResponse {
    return { ...ApiKeyResponse.from(entity), key };
  }
}
