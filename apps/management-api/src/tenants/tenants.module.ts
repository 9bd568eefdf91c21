import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Tenant } from '@sesame/entities';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { MembersModule } from '../members/members.module';
import { TenantRepository } from './tenant.repository';
import { TenantsController } from './tenants.controller';
import { TenantsService } from './tenants.service';

@Module({
  imports: [TypeOrmModule.forFeature([Tenant]), ApiKeysModule, MembersModule],
  controllers: [TenantsController],
  providers: [TenantRepository, TenantsService],
  exports: [TenantsService, TenantRepository],
})
export class TenantsModule {}
