import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RepositoriesModule, Tenant } from '@sesame/entities';
import { ApplicationsModule } from '../applications/applications.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { TenantRepository } from '../tenants/tenant.repository';
import { SystemTenantService } from './system-tenant.service';

/** The console's system tenant, organization and application (`npm run cli -- console:setup`). */
@Module({
  imports: [TypeOrmModule.forFeature([Tenant]), RepositoriesModule, OrganizationsModule, ApplicationsModule],
  providers: [TenantRepository, SystemTenantService],
  exports: [SystemTenantService],
})
export class SystemTenantModule {}
