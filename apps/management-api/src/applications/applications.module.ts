import { Module } from '@nestjs/common';
import { clientSecretVerifierProvider, secretBoxProvider } from '@sesame/common';
import { RepositoriesModule } from '@sesame/entities';
import { OrganizationsModule } from '../organizations/organizations.module';
import { ApplicationsController } from './applications.controller';
import { ApplicationsService } from './applications.service';
import { AuditModule } from '../audit/audit.module';

@Module({
  imports: [RepositoriesModule, OrganizationsModule, AuditModule],
  controllers: [ApplicationsController],
  providers: [ApplicationsService, secretBoxProvider, clientSecretVerifierProvider],
  exports: [ApplicationsService],
})
export class ApplicationsModule {}
