import { Inject, Injectable } from '@nestjs/common';
import {
  ApplicationType,
  CacheInvalidation,
  CacheInvalidationBus,
  ClientSecretVerifier,
  Clock,
  digestsEqual,
  Plan,
  SESAME_CONFIG,
  SesameConfig,
  sha256,
  TtlCache,
} from '@sesame/common';
import { ApplicationRepository } from '@sesame/entities';

/** What a web app's client secret is checked against. */
export interface StoredClientSecret {
  /** HMAC verifier of the current secret (ClientSecretVerifier). */
  verifier: Buffer | null;
  /** A bare SHA-256 of the current secret, from before HMAC verifiers, until `migrate` replaces it. */
  legacyHash: Buffer | null;
  /** The secret replaced by the last rotation, accepted until `previousExpiresAt`. */
  previousVerifier: Buffer | null;
  previousExpiresAt: Date | null;
}

export interface RegisteredClient {
  applicationId: string;
  clientId: string;
  type: ApplicationType;
  organizationId: string;
  tenantId: string;
  plan: Plan;
  /** Null for native apps, which have no secret. */
  secret: StoredClientSecret | null;
  /** The application's id_tokens are encrypted with the SHA-256 of the secret it authenticates with (`id_token_encrypted_response_alg: dir`). */
  idTokenEncrypted: boolean;
}

const MAX_CACHED_CLIENTS = 10_000;

/**
 * Finds applications by client_id and checks client secrets in constant time. Lookups are reused
 * for CLIENT_CACHE_SECONDS (default 5). A rotated secret, a deleted application or a plan change
 * is dropped from every instance's cache at once by the invalidation bus; the cache time bounds it
 * only while Redis is away.
 */
@Injectable()
export class ClientVerifier {
  private readonly cache = new TtlCache<string, RegisteredClient | null>(MAX_CACHED_CLIENTS);
  private readonly cacheMs: number;

  constructor(
    private readonly applications: ApplicationRepository,
    private readonly clock: Clock,
    private readonly verifiers: ClientSecretVerifier,
    @Inject(SESAME_CONFIG) config: SesameConfig,
    invalidations: CacheInvalidationBus,
  ) {
    this.cacheMs = config.auth.clientCacheSeconds * 1000;
    invalidations.subscribe((message) => this.forget(message));
  }

  async find(clientId: string): Promise<RegisteredClient | null> {
    if (clientId.length === 0 || clientId.length > 64) return null;
    const now = this.clock.now().getTime();
    return this.cache.getOrLoad(clientId, now, async () => ({ value: await this.lookup(clientId), keepUntil: now + this.cacheMs }));
  }

  /** The client as the cache holds it now: undefined when it is not cached (or null: cached as unknown). Never asks Postgres. */
  cached(clientId: string): RegisteredClient | null | undefined {
    return this.cache.get(clientId, this.clock.now().getTime());
  }

  /** Cached unknown client_ids are kept: client_ids are random, so none is looked up before its application exists. */
  private forget(message: CacheInvalidation): void {
    if (message.kind === 'application') this.cache.deleteWhere((client) => client?.applicationId === message.applicationId);
    if (message.kind === 'tenant') this.cache.deleteWhere((client) => client?.tenantId === message.tenantId);
    if (message.kind === 'organization') this.cache.deleteWhere((client) => client?.organizationId === message.organizationId);
  }

  private async lookup(clientId: string): Promise<RegisteredClient | null> {
    const row = await this.applications.findCredentials(clientId);
    if (!row) return null;
    const hasSecret = row.clientSecretVerifier !== null || row.clientSecretHash !== null;
    return {
      applicationId: row.applicationId,
      clientId,
      type: row.type,
      organizationId: row.organizationId,
      tenantId: row.tenantId,
      plan: row.plan,
      secret: hasSecret
        ? {
            verifier: row.clientSecretVerifier,
            legacyHash: row.clientSecretVerifier === null ? row.clientSecretHash : null,
            previousVerifier: row.previousClientSecretVerifier,
            previousExpiresAt: row.previousClientSecretExpiresAt,
          }
        : null,
      idTokenEncrypted: row.idTokenEncryptedResponseAlg === 'dir',
    };
  }

  /**
   * The current secret, or the previous one until its overlap ends. Every comparison is of two
   * 32-byte digests in constant time, and all of them are made, whichever matches.
   */
  secretMatches(client: RegisteredClient, secret: string): boolean {
    const stored = client.secret;
    if (!stored) return false;
    const current = this.verifiers.matches(secret, stored.verifier);
    const legacy = stored.legacyHash !== null && digestsEqual(sha256(secret), stored.legacyHash);
    const inOverlap = stored.previousExpiresAt !== null && stored.previousExpiresAt > this.clock.now();
    const previous = this.verifiers.matches(secret, stored.previousVerifier);
    return current || legacy || (inOverlap && previous);
  }
}
