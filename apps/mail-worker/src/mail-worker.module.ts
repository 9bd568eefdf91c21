import { getQueueToken } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import {
  ClockModule,
  HttpMetricsGuard,
  LoggingModule,
  MetricsModule,
  ProblemFilter,
  RedisHealthIndicator,
  RedisModule,
  SesameConfig,
  SesameConfigModule,
  SesameMetrics,
  ShutdownModule,
} from '@sesame/common';
import { DatabaseModule } from '@sesame/entities';
import { MAIL_QUEUE, MailQueueModule } from '@sesame/queue';
import type { Queue } from 'bull';
import { HealthController } from './health/health.controller';
import { MailModule } from './mail/mail.module';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { WebhooksModule } from './webhooks/webhooks.module';

const MAIL_QUEUE_DEPTH = Symbol('MAIL_QUEUE_DEPTH');

/** The worker: consumes the Bull `mail` queue, delivers webhooks and runs the maintenance job; HTTP only for its health endpoint and metrics. */
@Module({})
export class MailWorkerModule {
  static forRoot(config: SesameConfig): DynamicModule {
    return {
      module: MailWorkerModule,
      imports: [
        SesameConfigModule.forRoot(config),
        LoggingModule.forRoot(config, { app: 'mail-worker' }),
        MetricsModule.forRoot({ app: 'mail-worker' }),
        ClockModule,
        ShutdownModule,
        DatabaseModule,
        RedisModule,
        TerminusModule,
        MailQueueModule,
        MailModule,
        MaintenanceModule,
        WebhooksModule,
      ],
      controllers: [HealthController],
      providers: [
        RedisHealthIndicator,
        { provide: APP_GUARD, useExisting: HttpMetricsGuard },
        { provide: APP_FILTER, useClass: ProblemFilter },
        // The mail queue's depth (sesame_queue_jobs) on every scrape.
        {
          provide: MAIL_QUEUE_DEPTH,
          inject: [getQueueToken(MAIL_QUEUE), SesameMetrics],
          useFactory: (queue: Queue, metrics: SesameMetrics) => metrics.watchQueue(queue),
        },
      ],
    };
  }
}
