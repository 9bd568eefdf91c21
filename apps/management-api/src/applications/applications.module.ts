import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { clientSecretVerifierProvider, secretBoxProvider } from '@sesame/common';
import { AccessToken, Application } from '@sesame/entities';
import { OrganizationsModule } from '../organizations/organizations.module';
import { ApplicationRepository } from './application.repository';
import { ApplicationsController } from './applications.controller';
import { ApplicationsService } from './applications.service';

@Module({
  imports: [TypeOrmModule.forFeature([Application, AccessToken]), OrganizationsModule],
  controllers: [ApplicationsController],
  providers: [ApplicationRepository, ApplicationsService, secretBoxProvider, clientSecretVerifierProvider],
  exports: [ApplicationRepository, ApplicationsService],
})
export class ApplicationsModule {}
