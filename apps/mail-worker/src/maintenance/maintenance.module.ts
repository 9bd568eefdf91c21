import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { MailQueueModule, MaintenanceQueueModule } from '@sesame/queue';
import { MaintenanceLock } from './maintenance-lock';
import { MaintenancePause } from './maintenance-pause';
import { MaintenanceProcessor } from './maintenance.processor';
import { MaintenanceService } from './maintenance.service';

/** Retention: the repeatable `purge` job that deletes rows past their retention period. */
@Module({
  imports: [MaintenanceQueueModule, MailQueueModule, RepositoriesModule],
  providers: [MaintenanceLock, MaintenancePause, MaintenanceService, MaintenanceProcessor],
  exports: [MaintenanceService],
})
export class MaintenanceModule {}
