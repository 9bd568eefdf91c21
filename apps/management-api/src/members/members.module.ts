import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantMember } from '@sesame/entities';
import { ApiKeyAuthModule } from '@sesame/guards';
import { MailQueueModule } from '@sesame/queue';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { AuditModule } from '../audit/audit.module';
import { MeController } from './me.controller';
import { MembersController } from './members.controller';
import { MembersService } from './members.service';
import { TenantMemberRepository } from './tenant-member.repository';

/** Tenant members: GET/POST /v2/tenant/member, POST/DELETE /v2/tenant/member/{id}, and the signed-in person's GET /v2/me. */
@Module({
  imports: [TypeOrmModule.forFeature([TenantMember]), ApiKeyAuthModule, MailQueueModule, ApiKeysModule, AuditModule],
  controllers: [MembersController, MeController],
  providers: [TenantMemberRepository, MembersService],
  exports: [MembersService],
})
export class MembersModule {}
