import { Module } from '@nestjs/common';
import { LoginRepositoriesModule } from '@sesame/entities';
import { MailQueueModule, MaintenanceQueueModule } from '@sesame/queue';
import { AccessTokenRepository } from './access-token.repository';
import { AuditEventRepository } from './audit-event.repository';
import { AuthorizationCodeRepository } from './authorization-code.repository';
import { MaintenanceLock } from './maintenance-lock';
import { MaintenancePause } from './maintenance-pause';
import { MaintenanceProcessor } from './maintenance.processor';
import { MaintenanceService } from './maintenance.service';

/** Retention: the repeatable `purge` job that deletes rows past their retention period. */
@Module({
  imports: [MaintenanceQueueModule, MailQueueModule, LoginRepositoriesModule],
  providers: [
    AccessTokenRepository,
    AuditEventRepository,
    AuthorizationCodeRepository,
    MaintenanceLock,
    MaintenancePause,
    MaintenanceService,
    MaintenanceProcessor,
  ],
  exports: [MaintenanceService],
})
export class MaintenanceModule {}
