import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoginAttempt } from '@sesame/entities';
import { OrganizationsModule } from '../organizations/organizations.module';
import { LoginActivityController } from './login-activity.controller';
import { LoginActivityRepository } from './login-activity.repository';
import { LoginActivityService } from './login-activity.service';

/** GET /v2/organization/{id}/login_attempt: login attempts and the delivery of their e-mails. */
@Module({
  imports: [TypeOrmModule.forFeature([LoginAttempt]), OrganizationsModule],
  controllers: [LoginActivityController],
  providers: [LoginActivityRepository, LoginActivityService],
})
export class LoginActivityModule {}
