import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { ApiKeyAuthModule } from '@sesame/guards';
import { ApiKeysService } from './api-keys.service';
import { OrganizationApiKeysController } from './organization-api-keys.controller';
import { TenantApiKeysController } from './tenant-api-keys.controller';
import { AuditModule } from '../audit/audit.module';

@Module({
  imports: [RepositoriesModule, ApiKeyAuthModule, AuditModule],
  controllers: [TenantApiKeysController, OrganizationApiKeysController],
  providers: [ApiKeysService],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}
