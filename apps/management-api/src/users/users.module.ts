import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { OrganizationsModule } from '../organizations/organizations.module';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

@Module({
  imports: [RepositoriesModule, OrganizationsModule],
  controllers: [UsersController],
  providers: [UsersService],
})
export class UsersModule {}
