import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { MembersModule } from '../members/members.module';
import { TenantsController } from './tenants.controller';
import { TenantsService } from './tenants.service';

@Module({
  imports: [RepositoriesModule, ApiKeysModule, MembersModule],
  controllers: [TenantsController],
  providers: [TenantsService],
  exports: [TenantsService],
})
export class TenantsModule {}
