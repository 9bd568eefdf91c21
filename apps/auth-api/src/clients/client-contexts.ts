import { Inject, Injectable } from '@nestjs/common';
import { CacheInvalidation, CacheInvalidationBus, Clock, SESAME_CONFIG, SesameConfig, TtlCache } from '@sesame/common';
import { ApplicationRepository, ClientContext } from '@sesame/entities';

const MAX_CACHED_CONTEXTS = 10_000;

/**
 * The context an authenticated client's login starts from (its callback URLs, its organization's
 * whitelist, link lifetime and passkey setting), reused for CLIENT_CACHE_SECONDS like the client
 * itself (ClientVerifier): a change to the application, its organization or its tenant drops it
 * from every instance's cache at once through the invalidation bus; the cache time bounds it only
 * while Redis is away. Reusing it is safe for redirects: before a browser is sent anywhere the
 * redirect is checked again, uncached, against the settings of that moment (StoredRedirectCheck).
 */
@Injectable()
export class ClientContexts {
  private readonly cache = new TtlCache<string, ClientContext | null>(MAX_CACHED_CONTEXTS);
  private readonly cacheMs: number;

  constructor(
    private readonly applications: ApplicationRepository,
    private readonly clock: Clock,
    @Inject(SESAME_CONFIG) config: SesameConfig,
    invalidations: CacheInvalidationBus,
  ) {
    this.cacheMs = config.auth.clientCacheSeconds * 1000;
    invalidations.subscribe((message) => this.forget(message));
  }

  /** Null when the application no longer exists (not cached: an id is never reused). */
  async find(applicationId: string): Promise<ClientContext | null> {
    const now = this.clock.now().getTime();
    return this.cache.getOrLoad(applicationId, now, async () => {
      const context = await this.applications.findContextById(applicationId);
      return { value: context, keepUntil: context ? now + this.cacheMs : null };
    });
  }

  private forget(message: CacheInvalidation): void {
    if (message.kind === 'application') this.cache.delete(message.applicationId);
    if (message.kind === 'organization') this.cache.deleteWhere((context) => context?.organization.id === message.organizationId);
    if (message.kind === 'tenant') this.cache.deleteWhere((context) => context?.tenant.id === message.tenantId);
  }
}
