import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApplicationType, Clock, digestsEqual, Plan, SESAME_CONFIG, SesameConfig, sha256, TtlCache } from '@sesame/common';
import { DataSource } from 'typeorm';

export interface RegisteredClient {
  applicationId: string;
  clientId: string;
  type: ApplicationType;
  organizationId: string;
  tenantId: string;
  plan: Plan;
  clientSecretHash: Buffer | null;
}

const MAX_CACHED_CLIENTS = 10_000;

/**
 * Finds applications by client_id and checks client secrets in constant time. Lookups are reused
 * for CLIENT_CACHE_SECONDS (default 5): a rotated secret, a deleted application or a plan change
 * reaches the other instances within that time.
 */
@Injectable()
export class ClientVerifier {
  private readonly cache = new TtlCache<string, RegisteredClient | null>(MAX_CACHED_CLIENTS);
  private readonly cacheMs: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.cacheMs = config.auth.clientCacheSeconds * 1000;
  }

  async find(clientId: string): Promise<RegisteredClient | null> {
    if (clientId.length === 0 || clientId.length > 64) return null;
    const now = this.clock.now().getTime();
    const cached = this.cache.get(clientId, now);
    if (cached !== undefined) return cached;
    const client = await this.lookup(clientId);
    if (this.cacheMs > 0) this.cache.set(clientId, client, now + this.cacheMs);
    return client;
  }

  private async lookup(clientId: string): Promise<RegisteredClient | null> {
    const rows: { id: string; type: ApplicationType; organization_id: string; tenant_id: string; plan: Plan; client_secret_hash: Buffer | null }[] =
      await this.dataSource.query(
        `SELECT a.id, a.type, a.organization_id, o.tenant_id, t.plan, a.client_secret_hash
           FROM application a
           JOIN organization o ON o.id = a.organization_id
           JOIN tenant t ON t.id = o.tenant_id
          WHERE a.client_id = $1`,
        [clientId],
      );
    const row = rows[0];
    if (!row) return null;
    return {
      applicationId: row.id,
      clientId,
      type: row.type,
      organizationId: row.organization_id,
      tenantId: row.tenant_id,
      plan: row.plan,
      clientSecretHash: row.client_secret_hash,
    };
  }

  secretMatches(client: RegisteredClient, secret: string): boolean {
    return client.clientSecretHash !== null && digestsEqual(sha256(secret), client.clientSecretHash);
  }
}
