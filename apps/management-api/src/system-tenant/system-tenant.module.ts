import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { ApplicationsModule } from '../applications/applications.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SystemTenantService } from './system-tenant.service';

/** The console's system tenant, organization and application (`npm run cli -- console:setup`). */
@Module({
  imports: [RepositoriesModule, OrganizationsModule, ApplicationsModule],
  providers: [SystemTenantService],
  exports: [SystemTenantService],
})
export class SystemTenantModule {}
