import { Inject, Injectable } from '@nestjs/common';
import { CacheInvalidation, CacheInvalidationBus, Clock, SESAME_CONFIG, SesameConfig, TtlCache } from '@sesame/common';
import { ApplicationRepository, ClientContext } from '@sesame/entities';

const MAX_CACHED_CONTEXTS = 10_000;

/**
 * The context a client's login starts from (its callback URLs, its organization's whitelist, link
 * lifetime and passkey setting), by application id or, for the hosted page, by client_id, reused
 * for CLIENT_CACHE_SECONDS like the client itself (ClientVerifier): a change to the application,
 * its organization or its tenant drops it from every instance's cache at once through the
 * invalidation bus; the cache time bounds it only while Redis is away. Reusing it is safe for
 * redirects that carry a login: before a browser is sent on with a code, the redirect is checked
 * again, uncached, against the settings of that moment (StoredRedirectCheck), and a refusal there
 * is an error page. Only the hosted page's redirects with an error (and state, never a code: a
 * malformed request, a sign-in that stopped) trust the cached callback URLs: one removed while
 * Redis is away may get such an error for up to CLIENT_CACHE_SECONDS (5 s by default).
 */
@Injectable()
export class ClientContexts {
  private readonly byApplicationId = new TtlCache<string, ClientContext | null>(MAX_CACHED_CONTEXTS);
  /** The hosted page's requests name their client by client_id. */
  private readonly byClientId = new TtlCache<string, ClientContext | null>(MAX_CACHED_CONTEXTS);
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
  find(applicationId: string): Promise<ClientContext | null> {
    return this.cached(this.byApplicationId, applicationId, () => this.applications.findContextById(applicationId));
  }

  /** Null for an unknown client_id (not cached, so that made-up ids cannot crowd out real ones). */
  findByClientId(clientId: string): Promise<ClientContext | null> {
    return this.cached(this.byClientId, clientId, () => this.applications.findContextByClientId(clientId));
  }

  private cached(cache: TtlCache<string, ClientContext | null>, key: string, lookup: () => Promise<ClientContext | null>) {
    const now = this.clock.now().getTime();
    return cache.getOrLoad(key, now, async () => {
      const context = await lookup();
      return { value: context, keepUntil: context ? now + this.cacheMs : null };
    });
  }

  private forget(message: CacheInvalidation): void {
    const stale = staleBy(message);
    if (!stale) return;
    this.byApplicationId.deleteWhere(stale);
    this.byClientId.deleteWhere(stale);
  }
}

/** Which cached contexts a change makes stale; null when it concerns none. */
function staleBy(message: CacheInvalidation): ((context: ClientContext | null) => boolean) | null {
  if (message.kind === 'application') return (context) => context?.application.id === message.applicationId;
  if (message.kind === 'organization') return (context) => context?.organization.id === message.organizationId;
  if (message.kind === 'tenant') return (context) => context?.tenant.id === message.tenantId;
  return null;
}
