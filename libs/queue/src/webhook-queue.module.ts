import { BullModule, InjectQueue } from '@nestjs/bull';
import { Injectable, Module } from '@nestjs/common';
import { bullRedisOptions, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import type { Queue } from 'bull';
import { bullPrefix, WORKER_LOCK_SETTINGS } from './mail-queue.module';
import {
  DELIVER_WEBHOOK_JOB,
  DeliverWebhookJob,
  MAX_WEBHOOK_DEFERRALS,
  WEBHOOK_BACKOFF,
  WEBHOOK_QUEUE,
  webhookJobId,
  webhookRetryDelay,
} from './webhook-queue';

/** Adds delivery jobs; adding a delivery whose job exists does nothing (see webhookJobId). */
@Injectable()
export class WebhookProducer {
  constructor(@InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue<DeliverWebhookJob>) {}

  async enqueue(deliveries: { id: string; redeliveries: number }[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.queue.addBulk(
      deliveries.map((delivery) => ({
        name: DELIVER_WEBHOOK_JOB,
        data: { version: 1, deliveryId: delivery.id },
        opts: { jobId: webhookJobId(delivery) },
      })),
    );
  }
}

/** Registers the `webhook` queue: one try per job run, WEBHOOK_RETRY_DELAYS_MS between tries, then the delivery has failed. */
@Module({
  imports: [
    BullModule.registerQueueAsync({
      name: WEBHOOK_QUEUE,
      inject: [SESAME_CONFIG],
      useFactory: (config: SesameConfig) => ({
        redis: bullRedisOptions(config),
        prefix: bullPrefix(config),
        settings: {
          // A killed worker's tries are taken over in seconds (the webhook-delivery drill saw a minute and more without).
          ...WORKER_LOCK_SETTINGS,
          backoffStrategies: {
            [WEBHOOK_BACKOFF]: (_attemptsMade: number, error: unknown) => webhookRetryDelay(error, config.webhooks.retryDelaysMs),
          },
        },
        defaultJobOptions: {
          // The tries are counted in Postgres (runs deferred for the tenant's cap, or failed for
          // another reason, are no try); Bull's count only bounds the runs.
          attempts: config.webhooks.retryDelaysMs.length + 1 + MAX_WEBHOOK_DEFERRALS,
          backoff: { type: WEBHOOK_BACKOFF },
          timeout: config.webhooks.timeoutMs + 5000,
          // A deferral fails the run: keep one stack trace, not one per run.
          stackTraceLimit: 1,
          removeOnComplete: true,
          // A job out of runs is removed, so the dispatcher can queue its delivery again.
          removeOnFail: true,
        },
      }),
    }),
  ],
  providers: [WebhookProducer],
  exports: [BullModule, WebhookProducer],
})
export class WebhookQueueModule {}
