import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock, REDIS, SESAME_CONFIG, SesameConfig, TtlCache } from '@sesame/common';
import { OrganizationRepository } from '@sesame/entities';
import Redis from 'ioredis';
import { BucketSize, bucketOf, field, UsageMetric } from './usage-buckets';

const MAX_CACHED_ORGANIZATIONS = 10_000;

/**
 * Counts events per tenant in Redis time buckets (one HINCRBY per bucket size, in one MULTI), off
 * the request's path: counting never delays or fails a request; a Redis outage loses the counts
 * made meanwhile (logged). Every app that produces an event counts it here; the management API
 * reads the history with UsageHistory.
 */
@Injectable()
export class UsageCounter {
  private readonly logger = new Logger(UsageCounter.name);
  private readonly prefix: string;
  /** An organization never moves to another tenant, so its tenant is remembered for good. */
  private readonly tenants = new TtlCache<string, string>(MAX_CACHED_ORGANIZATIONS);

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
    const transaction = this.redis.multi();
    for (const size of ['minute', 'hour'] as BucketSize[]) {
      const bucket = bucketOf(this.prefix, tenantId, size, now);
      transaction.hincrby(bucket.key, field(metric, bucket.index), 1).pexpireat(bucket.key, bucket.expiresAt);
    }
    try {
      await transaction.exec();
    } catch (error) {
      this.logger.warn(`Could not count ${metric} for a tenant: ${(error as Error).message}`);
    }
  }

  /** Counts one event of the tenant an organization belongs to. */
  async recordForOrganization(organizationId: string, metric: UsageMetric): Promise<void> {
    const tenantId = await this.tenantOf(organizationId);
    if (tenantId) await this.record(tenantId, metric);
  }

  private async tenantOf(organizationId: string): Promise<string | null> {
    const cached = this.tenants.get(organizationId, 0);
    if (cached) return cached;
    try {
      const tenantId = await this.organizations.findTenantId(organizationId);
      if (tenantId) this.tenants.set(organizationId, tenantId, Infinity);
      return tenantId;
    } catch (error) {
      this.logger.warn(`Could not find the tenant of an organization to count usage: ${(error as Error).message}`);
      return null;
    }
  }
}
