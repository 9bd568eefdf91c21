import { Inject, Injectable } from '@nestjs/common';
import { Clock, problem, REDIS, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import Redis from 'ioredis';
import { UsageCounter } from './usage-counter';
import { BucketSize, DAY_MS, dayStart, field, hashKey, HOUR_MS, MINUTE_MS, USAGE_METRICS, UsageMetric } from './usage-buckets';

export type UsageRange = '24h' | '30d';
export type UsageGranularity = 'minute' | 'hour' | 'day';

/** The ranges and the granularities each is kept at. */
export const USAGE_GRANULARITIES: Record<UsageRange, readonly UsageGranularity[]> = { '24h': ['minute', 'hour'], '30d': ['hour', 'day'] };
export const DEFAULT_GRANULARITY: Record<UsageRange, UsageGranularity> = { '24h': 'minute', '30d': 'day' };

export type UsageCounts = Record<UsageMetric, number>;

export interface UsagePoint extends UsageCounts {
  /** Start of the minute, hour or day (UTC). */
  start: Date;
}

const RANGE_MS: Record<UsageRange, number> = { '24h': DAY_MS, '30d': 30 * DAY_MS };
const STEP_MS: Record<UsageGranularity, number> = { minute: MINUTE_MS, hour: HOUR_MS, day: DAY_MS };
/** Where each granularity is read from: days are sums of hours. */
const SOURCE: Record<UsageGranularity, BucketSize> = { minute: 'minute', hour: 'hour', day: 'hour' };

/**
 * Reads a tenant's usage history from the buckets UsageCounter writes: one HGETALL per UTC day the
 * range touches, after writing this instance's tallied requests (another instance's show within
 * TALLY_FLUSH_MS).
 */
@Injectable()
export class UsageHistory {
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SESAME_CONFIG) config: SesameConfig,
    private readonly clock: Clock,
    private readonly counter: UsageCounter,
  ) {
    this.prefix = config.redis.prefix;
  }

  /** One point per minute, hour or day of the range, oldest first; the last is the one under way. */
  async read(tenantId: string, range: UsageRange, granularity: UsageGranularity): Promise<UsagePoint[]> {
    const step = STEP_MS[granularity];
    const now = this.clock.now().getTime();
    const last = now - (now % step);
    const first = last - RANGE_MS[range] + step;
    const source = SOURCE[granularity];
    await this.counter.flush();
    const days = new Map<number, Record<string, string>>();
    for (let day = dayStart(first); day <= last; day += DAY_MS) days.set(day, {});
    const hashes = await Promise.all([...days.keys()].map((day) => this.redis.hgetall(hashKey(this.prefix, tenantId, source, day)))).catch(
      () => {
        throw problem('usage_unavailable', 'The usage counters cannot be read right now; retry shortly', {
          headers: { 'Retry-After': '1' },
        });
      },
    );
    [...days.keys()].forEach((day, i) => days.set(day, hashes[i]));

    const points: UsagePoint[] = [];
    for (let start = first; start <= last; start += step)
      points.push({ start: new Date(start), ...this.countsIn(days, source, start, step) });
    return points;
  }

  /** The counts of [start, start + step): one bucket, or for a day the sum of its hour buckets. */
  private countsIn(days: Map<number, Record<string, string>>, source: BucketSize, start: number, step: number): UsageCounts {
    const bucketMs = source === 'minute' ? MINUTE_MS : HOUR_MS;
    const counts = Object.fromEntries(USAGE_METRICS.map((metric) => [metric, 0])) as UsageCounts;
    for (let time = start; time < start + step; time += bucketMs) {
      const day = dayStart(time);
      const hash = days.get(day) ?? {};
      const index = Math.floor((time - day) / bucketMs);
      for (const metric of USAGE_METRICS) counts[metric] += Number(hash[field(metric, index)] ?? 0);
    }
    return counts;
  }
}
