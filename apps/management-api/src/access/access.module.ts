import { Module } from '@nestjs/common';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AccessGuard } from './access.guard';

/** Who may call what (@Access on each route), enforced by AccessGuard, which the app registers after authentication. */
@Module({
  imports: [OrganizationsModule],
  providers: [AccessGuard],
  exports: [AccessGuard],
})
export class AccessModule {}
