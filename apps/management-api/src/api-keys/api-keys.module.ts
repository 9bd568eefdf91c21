import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from '@sesame/entities';
import { ApiKeyAuthModule } from '@sesame/guards';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeysService } from './api-keys.service';
import { OrganizationApiKeysController } from './organization-api-keys.controller';
import { TenantApiKeysController } from './tenant-api-keys.controller';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKey]), ApiKeyAuthModule],
  controllers: [TenantApiKeysController, OrganizationApiKeysController],
  providers: [ApiKeyRepository, ApiKeysService],
  exports: [ApiKeysService, ApiKeyRepository],
})
export class ApiKeysModule {}
