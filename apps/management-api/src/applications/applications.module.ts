import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { secretBoxProvider } from '@sesame/common';
import { Application } from '@sesame/entities';
import { OrganizationsModule } from '../organizations/organizations.module';
import { ApplicationRepository } from './application.repository';
import { ApplicationsController } from './applications.controller';
import { ApplicationsService } from './applications.service';

@Module({
  imports: [TypeOrmModule.forFeature([Application]), OrganizationsModule],
  controllers: [ApplicationsController],
  providers: [ApplicationRepository, ApplicationsService, secretBoxProvider],
})
export class ApplicationsModule {}
