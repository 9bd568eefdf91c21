import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  CacheInvalidation,
  CacheInvalidationBus,
  Clock,
  SESAME_CONFIG,
  SesameConfig,
  TtlCache,
  digestsEqual,
  sha256,
} from '@sesame/common';
import { ApiKeyRepository } from '@sesame/entities';
import { looksLikeApiKey } from './api-key-format';
import { ApiKeyPrincipal, Principal } from './principal';

const MAX_CACHE_ENTRIES = 10_000;
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Finds the principal of an API key by the key's SHA-256. Lookups are cached in process for
 * API_KEY_CACHE_SECONDS (default 5). A revoked key, a deleted organization or a plan change is
 * dropped from every instance's cache at once by the invalidation bus (and from this instance's
 * even while Redis is away); the cache time bounds it on the others only while Redis is away.
 */
@Injectable()
export class ApiKeyVerifier {
  private readonly logger = new Logger(ApiKeyVerifier.name);
  private readonly cache = new TtlCache<string, ApiKeyPrincipal | null>(MAX_CACHE_ENTRIES);
  private readonly lastUsedWrites = new Map<string, number>();
  private readonly platformKeyHash: Buffer | null;
  private readonly cacheMs: number;

  constructor(
    private readonly keys: ApiKeyRepository,
    @Inject(SESAME_CONFIG) config: SesameConfig,
    private readonly clock: Clock,
    invalidations: CacheInvalidationBus,
  ) {
    this.platformKeyHash = config.secrets.platformApiKey ? sha256(config.secrets.platformApiKey) : null;
    this.cacheMs = config.apiKeys.cacheSeconds * 1000;
    invalidations.subscribe((message) => this.forgetChanged(message));
  }

  async verify(presented: string): Promise<Principal | null> {
    const hash = sha256(presented);
    if (this.platformKeyHash && digestsEqual(hash, this.platformKeyHash)) return { kind: 'platform' };
    if (!looksLikeApiKey(presented)) return null;

    const cacheKey = hash.toString('base64');
    const now = this.clock.now().getTime();
    const principal = await this.cache.getOrLoad(cacheKey, now, async () => ({
      value: await this.lookup(hash),
      keepUntil: now + this.cacheMs,
    }));
    if (principal) this.touch(principal.apiKeyId, now);
    return principal;
  }

  /** Whether verify() would answer this key from the cache alone, as a live tenant or organization key (no Postgres). */
  holdsLiveKey(presented: string): boolean {
    if (!looksLikeApiKey(presented)) return false;
    return !!this.cache.get(sha256(presented).toString('base64'), this.clock.now().getTime());
  }

  /** Drops a key from this instance's cache at once (publish an `api-key` invalidation for the others). */
  forget(hash: Buffer): void {
    this.cache.delete(hash.toString('base64'));
  }

  /** Drops every cached key of an organization from this instance's cache (the organization was deleted). */
  forgetOrganization(organizationId: string): void {
    this.cache.deleteWhere((principal) => principal?.kind === 'organization' && principal.organizationId === organizationId);
  }

  private forgetChanged(message: CacheInvalidation): void {
    if (message.kind === 'api-key') this.cache.deleteWhere((principal) => principal?.apiKeyId === message.apiKeyId);
    if (message.kind === 'tenant') this.cache.deleteWhere((principal) => principal?.tenantId === message.tenantId);
    if (message.kind === 'organization') this.forgetOrganization(message.organizationId);
  }

  private async lookup(hash: Buffer): Promise<ApiKeyPrincipal | null> {
    const key = await this.keys.findLive(hash);
    if (!key) return null;
    return key.organizationId
      ? {
          kind: 'organization',
          tenantId: key.tenantId,
          organizationId: key.organizationId,
          plan: key.plan,
          apiKeyId: key.id,
          apiKeyName: key.name,
          role: key.role,
        }
      : { kind: 'tenant', tenantId: key.tenantId, plan: key.plan, apiKeyId: key.id, apiKeyName: key.name, role: key.role };
  }

  /** Records last use at most once a minute per key and instance, off the request's path. */
  private touch(apiKeyId: string, now: number): void {
    if ((this.lastUsedWrites.get(apiKeyId) ?? 0) > now - LAST_USED_RESOLUTION_MS) return;
    if (this.lastUsedWrites.size >= MAX_CACHE_ENTRIES) this.lastUsedWrites.clear();
    this.lastUsedWrites.set(apiKeyId, now);
    this.keys
      .recordUse(apiKeyId, new Date(now))
      .catch((error: Error) => this.logger.warn(`Could not record API key use: ${error.message}`));
  }
}
