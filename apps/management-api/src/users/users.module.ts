import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { OrganizationsModule } from '../organizations/organizations.module';
import { UserPasskeysController } from './user-passkeys.controller';
import { UserPasskeysService } from './user-passkeys.service';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';
import { AuditModule } from '../audit/audit.module';

@Module({
  imports: [RepositoriesModule, OrganizationsModule, AuditModule],
  controllers: [UsersController, UserPasskeysController],
  providers: [UsersService, UserPasskeysService],
})
export class UsersModule {}
