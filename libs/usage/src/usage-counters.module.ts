import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { UsageCounter } from './usage-counter';
import { UsageHistory } from './usage-history';

/** Usage counters in Redis time buckets. Needs the global RedisModule, ClockModule and SesameConfigModule, and the database. */
@Module({ imports: [RepositoriesModule], providers: [UsageCounter, UsageHistory], exports: [UsageCounter, UsageHistory] })
export class UsageCountersModule {}
