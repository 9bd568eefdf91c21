import { Module } from '@nestjs/common';
import { MailQueueModule, MaintenanceQueueModule } from '@sesame/queue';
import { AccessTokenRepository } from './access-token.repository';
import { AuditEventRepository } from './audit-event.repository';
import { AuthorizationCodeRepository } from './authorization-code.repository';
import { EmailThrottleRepository } from './email-throttle.repository';
import { LoginAttemptRepository } from './login-attempt.repository';
import { MaintenanceLock } from './maintenance-lock';
import { MaintenanceProcessor } from './maintenance.processor';
import { MaintenanceService } from './maintenance.service';

/** Retention: the repeatable `purge` job that deletes rows past their retention period. */
@Module({
  imports: [MaintenanceQueueModule, MailQueueModule],
  providers: [
    AccessTokenRepository,
    AuditEventRepository,
    AuthorizationCodeRepository,
    EmailThrottleRepository,
    LoginAttemptRepository,
    MaintenanceLock,
    MaintenanceService,
    MaintenanceProcessor,
  ],
  exports: [MaintenanceService],
})
export class MaintenanceModule {}
