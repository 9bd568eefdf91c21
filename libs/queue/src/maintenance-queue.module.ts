import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { bullRedisOptions, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { MAINTENANCE_QUEUE } from './maintenance-queue';
import { bullPrefix } from './mail-queue.module';

/** Registers the `maintenance` queue on the configured Redis (mail-worker schedules and runs it). */
@Module({
  imports: [
    BullModule.registerQueueAsync({
      name: MAINTENANCE_QUEUE,
      inject: [SESAME_CONFIG],
      useFactory: (config: SesameConfig) => ({
        redis: bullRedisOptions(config),
        prefix: bullPrefix(config),
        defaultJobOptions: {
          // The next repetition is the retry: a failed run is kept (the last few) for the dashboard and not repeated.
          attempts: 1,
          removeOnComplete: true,
          removeOnFail: 20,
        },
      }),
    }),
  ],
  exports: [BullModule],
})
export class MaintenanceQueueModule {}
