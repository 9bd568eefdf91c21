import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { ApiKeyAuthModule } from '@sesame/guards';
import { OrganizationsController } from './organizations.controller';
import { OrganizationsService } from './organizations.service';

@Module({
  imports: [RepositoriesModule, ApiKeyAuthModule],
  controllers: [OrganizationsController],
  providers: [OrganizationsService],
  exports: [OrganizationsService, RepositoriesModule],
})
export class OrganizationsModule {}
