import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Organization } from '@sesame/entities';
import { ApiKeyAuthModule } from '@sesame/guards';
import { OrganizationRepository } from './organization.repository';
import { OrganizationsController } from './organizations.controller';
import { OrganizationsService } from './organizations.service';

@Module({
  imports: [TypeOrmModule.forFeature([Organization]), ApiKeyAuthModule],
  controllers: [OrganizationsController],
  providers: [OrganizationRepository, OrganizationsService],
  exports: [OrganizationsService, OrganizationRepository],
})
export class OrganizationsModule {}
