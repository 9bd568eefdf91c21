import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { OrganizationsModule } from '../organizations/organizations.module';
import { LoginActivityController } from './login-activity.controller';
import { LoginActivityService } from './login-activity.service';

/** GET /v2/organization/{id}/login_attempt: login attempts and the delivery of their e-mails. */
@Module({
  imports: [RepositoriesModule, OrganizationsModule],
  controllers: [LoginActivityController],
  providers: [LoginActivityService],
})
export class LoginActivityModule {}
