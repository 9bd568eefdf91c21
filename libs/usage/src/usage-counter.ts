import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { Clock, REDIS, SESAME_CONFIG, SesameConfig, TtlCache } from '@sesame/common';
import { OrganizationRepository } from '@sesame/entities';
import Redis from 'ioredis';
import { BucketSize, bucketOf, field, UsageMetric } from './usage-buckets';

const MAX_CACHED_ORGANIZATIONS = 10_000;
const BUCKET_SIZES: BucketSize[] = ['minute', 'hour'];
/** How long tallied counts wait in memory before they are written: at most this much is lost when the process dies. */
export const TALLY_FLUSH_MS = 1000;

interface TalliedCount {
  key: string;
  field: string;
  count: number;
  expiresAt: number;
}

/**
 * Counts events per tenant in Redis time buckets (HINCRBY per bucket size, in one MULTI), off the
 * request's path: counting never delays or fails a request; a Redis outage loses the counts made
 * meanwhile (logged). Events (logins, mails) are written as they happen; requests, one per
 * management API call, are tallied in memory and written together every TALLY_FLUSH_MS, on a read
 * of the history and at shutdown, so a request costs no Redis round trip. Every app that produces
 * an event counts it here; the management API reads the history with UsageHistory.
 */
@Injectable()
export class UsageCounter implements BeforeApplicationShutdown {
  private readonly logger = new Logger(UsageCounter.name);
  private readonly prefix: string;
  /** An organization never moves to another tenant, so its tenant is remembered for good. */
  private readonly tenants = new TtlCache<string, string | null>(MAX_CACHED_ORGANIZATIONS);
  /** Counts not yet written, by bucket key and field. */
  private tallied = new Map<string, TalliedCount>();
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SESAME_CONFIG) config: SesameConfig,
    private readonly clock: Clock,
    private readonly organizations: OrganizationRepository,
  ) {
    this.prefix = config.redis.prefix;
  }

  /** Counts one event of the tenant now; resolves once Redis has it (callers need not wait). */
  async record(tenantId: string, metric: UsageMetric): Promise<void> {
    const now = this.clock.now().getTime();
    await this.write(
      BUCKET_SIZES.map((size) => {
        const bucket = bucketOf(this.prefix, tenantId, size, now);
        return { key: bucket.key, field: field(metric, bucket.index), count: 1, expiresAt: bucket.expiresAt };
      }),
      metric,
    );
  }

  /** Counts one request of the tenant now, in memory; it is written with the others within TALLY_FLUSH_MS. */
  tally(tenantId: string, metric: UsageMetric): void {
    const now = this.clock.now().getTime();
    for (const size of BUCKET_SIZES) {
      const bucket = bucketOf(this.prefix, tenantId, size, now);
      const fieldName = field(metric, bucket.index);
      const id = `${bucket.key} ${fieldName}`;
      const counted = this.tallied.get(id);
      if (counted) counted.count += 1;
      else this.tallied.set(id, { key: bucket.key, field: fieldName, count: 1, expiresAt: bucket.expiresAt });
    }
    this.flushTimer ??= setTimeout(() => void this.flush(), TALLY_FLUSH_MS).unref();
  }

  /** Writes the tallied counts now: one MULTI for all of them. */
  async flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.tallied.size === 0) return;
    const counts = [...this.tallied.values()];
    this.tallied = new Map();
    await this.write(counts, 'requests');
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** Counts one event of the tenant an organization belongs to. */
  async recordForOrganization(organizationId: string, metric: UsageMetric): Promise<void> {
    const tenantId = await this.tenantOf(organizationId);
    if (tenantId) await this.record(tenantId, metric);
  }

  private async write(counts: TalliedCount[], what: string): Promise<void> {
    const transaction = this.redis.multi();
    for (const counted of counts) transaction.hincrby(counted.key, counted.field, counted.count).pexpireat(counted.key, counted.expiresAt);
    try {
      await transaction.exec();
    } catch (error) {
      this.logger.warn(`Could not count ${what} (${counts.length} counters): ${(error as Error).message}`);
    }
  }

  private async tenantOf(organizationId: string): Promise<string | null> {
    try {
      return await this.tenants.getOrLoad(organizationId, 0, async () => {
        const tenantId = await this.organizations.findTenantId(organizationId);
        return { value: tenantId, keepUntil: tenantId ? Infinity : null };
      });
    } catch (error) {
      this.logger.warn(`Could not find the tenant of an organization to count usage: ${(error as Error).message}`);
      return null;
    }
  }
}
