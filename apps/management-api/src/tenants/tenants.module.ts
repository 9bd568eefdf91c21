import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Tenant } from '@sesame/entities';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { TenantRepository } from './tenant.repository';
import { TenantsController } from './tenants.controller';
import { TenantsService } from './tenants.service';

@Module({
  imports: [TypeOrmModule.forFeature([Tenant]), ApiKeysModule],
  controllers: [TenantsController],
  providers: [TenantRepository, TenantsService],
  exports: [TenantsService],
})
export class TenantsModule {}
