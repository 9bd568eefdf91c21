import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { MembersModule } from '../members/members.module';
import { TenantsController } from './tenants.controller';
import { TenantsService } from './tenants.service';
import { AuditModule } from '../audit/audit.module';

@Module({
  imports: [RepositoriesModule, ApiKeysModule, MembersModule, AuditModule],
  controllers: [TenantsController],
  providers: [TenantsService],
  exports: [TenantsService],
})
export class TenantsModule {}
