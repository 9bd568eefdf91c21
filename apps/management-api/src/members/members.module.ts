import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { ApiKeyAuthModule } from '@sesame/guards';
import { MailQueueModule } from '@sesame/queue';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { AuditModule } from '../audit/audit.module';
import { MeController } from './me.controller';
import { MembersController } from './members.controller';
import { MembersService } from './members.service';

/** Tenant members: GET/POST /v2/tenant/member, POST/DELETE /v2/tenant/member/{id}, and the signed-in person's GET /v2/me. */
@Module({
  imports: [RepositoriesModule, ApiKeyAuthModule, MailQueueModule, ApiKeysModule, AuditModule],
  controllers: [MembersController, MeController],
  providers: [MembersService],
  exports: [MembersService],
})
export class MembersModule {}
