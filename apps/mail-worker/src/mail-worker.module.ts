import { getQueueToken } from '@nestjs/bull';
import { DynamicModule, Logger, Module } from '@nestjs/common';
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
import {
  handleQueueStart,
  MAIL_QUEUE,
  MailQueueModule,
  MAINTENANCE_QUEUE,
  MaintenanceQueueModule,
  WEBHOOK_QUEUE,
  WebhookQueueModule,
} from '@sesame/queue';
import type { Queue } from 'bull';
import { HealthController } from './health/health.controller';
import { MailModule } from './mail/mail.module';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { WebhooksModule } from './webhooks/webhooks.module';

const MAIL_QUEUE_DEPTH = Symbol('MAIL_QUEUE_DEPTH');
const QUEUE_STARTS = Symbol('QUEUE_STARTS');

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
        MaintenanceQueueModule,
        WebhookQueueModule,
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
        // Bull's start of each queue the worker takes jobs from, handled before @nestjs/bull starts them (queue-start.ts).
        {
          provide: QUEUE_STARTS,
          inject: [getQueueToken(MAIL_QUEUE), getQueueToken(MAINTENANCE_QUEUE), getQueueToken(WEBHOOK_QUEUE)],
          useFactory: (...queues: Queue[]) => {
            const logger = new Logger('QueueStart');
            for (const queue of queues) handleQueueStart(queue, logger);
          },
        },
      ],
    };
  }
}
