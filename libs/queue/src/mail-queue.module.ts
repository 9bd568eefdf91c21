import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { MAIL_QUEUE } from './mail-queue';
import { MailProducer } from './mail-producer';

/** Bull's keys live under the configured prefix; the braces make it one Redis Cluster hash slot per queue. */
export function bullPrefix(config: SesameConfig): string {
  return `{${config.redis.prefix}:bull}`;
}

/** Registers the `mail` queue on the configured Redis; both the producer (auth-api) and the worker import it. */
@Module({
  imports: [
    BullModule.registerQueueAsync({
      name: MAIL_QUEUE,
      inject: [SESAME_CONFIG],
      useFactory: (config: SesameConfig) => ({
        url: config.redis.url,
        prefix: bullPrefix(config),
        defaultJobOptions: {
          attempts: config.mail.attempts,
          backoff: { type: 'exponential', delay: config.mail.retryDelayMs },
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
