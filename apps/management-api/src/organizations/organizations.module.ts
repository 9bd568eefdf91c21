import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { ApiKeyAuthModule } from '@sesame/guards';
import { OrganizationsController } from './organizations.controller';
import { OrganizationsService } from './organizations.service';
import { AuditModule } from '../audit/audit.module';

@Module({
  imports: [RepositoriesModule, ApiKeyAuthModule, AuditModule],
  controllers: [OrganizationsController],
  providers: [OrganizationsService],
  exports: [OrganizationsService, RepositoriesModule],
})
export class OrganizationsModule {}
