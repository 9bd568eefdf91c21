import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { bullRedisOptions, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { CAPPED_BACKOFF, cappedBackoff } from './mail-backoff';
import { MAIL_QUEUE } from './mail-queue';
import { MailProducer } from './mail-producer';

/** Bull's keys live under the configured prefix; the braces make it one Redis Cluster hash slot per queue. */
export function bullPrefix(config: SesameConfig): string {
  return `{${config.redis.prefix}:bull}`;
}

/**
 * Lock and stalled-job check for the worker: a worker killed mid-job (kill -9, a crash) holds its
 * job's lock for at most LOCK_MS, and another worker's check, every STALLED_CHECK_MS, takes the job
 * over, so the e-mail is late by seconds, not minutes. A live worker renews its lock every
 * LOCK_MS / 2, so a slow send is never taken over (and never sent twice).
 */
const LOCK_MS = 5000;
const STALLED_CHECK_MS = 5000;

/** The lock and stalled-job settings of every queue a worker runs (the mail and the webhook queue). */
export const WORKER_LOCK_SETTINGS = {
  lockDuration: LOCK_MS,
  lockRenewTime: LOCK_MS / 2,
  stalledInterval: STALLED_CHECK_MS,
  // A job stalls once per crashed worker; more than a few crashes in a row is a broken job.
  maxStalledCount: 3,
};

/** Registers the `mail` queue on the configured Redis; both the producer (auth-api) and the worker import it. */
@Module({
  imports: [
    BullModule.registerQueueAsync({
      name: MAIL_QUEUE,
      inject: [SESAME_CONFIG],
      useFactory: (config: SesameConfig) => ({
        redis: bullRedisOptions(config),
        prefix: bullPrefix(config),
        settings: {
          ...WORKER_LOCK_SETTINGS,
          backoffStrategies: {
            [CAPPED_BACKOFF]: (attemptsMade: number) => cappedBackoff(attemptsMade, config.mail.retryDelayMs, config.mail.retryMaxDelayMs),
          },
        },
        defaultJobOptions: {
          attempts: config.mail.attempts,
          backoff: { type: CAPPED_BACKOFF },
          removeOnComplete: true,
          // Failed jobs are kept for inspection (and the queue dashboard).
          removeOnFail: false,
        },
      }),
    }),
  ],
  providers: [MailProducer],
  exports: [BullModule, MailProducer],
})
export class MailQueueModule {}
