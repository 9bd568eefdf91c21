import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  CacheInvalidation,
  CacheInvalidationBus,
  Clock,
  isSecretShaped,
  Loaded,
  SESAME_CONFIG,
  SesameConfig,
  sha256,
  TtlCache,
} from '@sesame/common';
import { AccessTokenRepository, MemberAccess, TenantMemberRepository } from '@sesame/entities';
import { MemberPrincipal, SignedInPerson } from '../api-key/principal';

const MAX_CACHE_ENTRIES = 10_000;

/** A console token's last use is recorded at most this often (per token and instance). */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolves console access tokens for the management API: the token (issued to the console
 * application only, unexpired, unrevoked, of an unblocked user with a verified address, used within
 * MEMBER_SESSION_IDLE_SECONDS and issued within MEMBER_SESSION_MAX_SECONDS) gives the person, and
 * the person's address with a tenant gives the member. Both lookups are cached in
 * process for API_KEY_CACHE_SECONDS, like API keys: a token revoked at the auth API takes effect
 * within that time; a member removed or given another role, or a plan change, at once on every
 * instance through the invalidation bus (within that time on the others while Redis is away).
 */
@Injectable()
export class MemberVerifier {
  private readonly logger = new Logger(MemberVerifier.name);
  private readonly people = new TtlCache<string, SignedInPerson | null>(MAX_CACHE_ENTRIES);
  /** Memberships by tenant and address; the sign-in time belongs to the token, so it is not cached here. */
  private readonly members = new TtlCache<string, MemberAccess | null>(MAX_CACHE_ENTRIES);
  private readonly cacheMs: number;
  private readonly idleMs: number;
  private readonly maxAgeMs: number;
  private readonly lastUsedWrites = new Map<string, number>();

  constructor(
    private readonly accessTokens: AccessTokenRepository,
    private readonly tenantMembers: TenantMemberRepository,
    @Inject(SESAME_CONFIG) config: SesameConfig,
    private readonly clock: Clock,
    invalidations: CacheInvalidationBus,
  ) {
    this.cacheMs = config.apiKeys.cacheSeconds * 1000;
    this.idleMs = config.members.sessionIdleSeconds * 1000;
    this.maxAgeMs = config.members.sessionMaxSeconds * 1000;
    invalidations.subscribe((message) => this.forgetChanged(message));
  }

  /** True for a bearer value that may be a console access token (anything else need not be looked up). */
  looksLikeAccessToken(token: string): boolean {
    return isSecretShaped(token);
  }

  /** The person a console access token belongs to, or null. */
  async person(token: string): Promise<SignedInPerson | null> {
    const hash = sha256(token).toString('base64');
    const now = this.clock.now().getTime();
    const person = await this.people.getOrLoad(hash, now, () => this.signedIn(token, now));
    if (person) await this.touch(hash, token, now);
    return person;
  }

  /** The console session a token opens now, cached no longer than the session may last; its first lookup records the sign-in. */
  private async signedIn(token: string, now: number): Promise<Loaded<SignedInPerson | null>> {
    const session = await this.accessTokens.findConsoleSession(
      sha256(token),
      new Date(now),
      new Date(now - this.maxAgeMs),
      new Date(now - this.idleMs),
    );
    if (!session) return { value: null, keepUntil: now + this.cacheMs };
    await this.recordSignIn(session.email, session.issuedAt);
    const endsAt = Math.min(session.expiresAt.getTime(), session.issuedAt.getTime() + this.maxAgeMs);
    return {
      value: { userId: session.userId, email: session.email, signedInAt: session.issuedAt },
      keepUntil: Math.min(now + this.cacheMs, endsAt),
    };
  }

  /** The person as a member of the tenant, or null when they are not one (or the tenant does not exist). */
  async member(person: SignedInPerson, tenantId: string): Promise<MemberPrincipal | null> {
    const membership = await this.membership(tenantId, person.email);
    return (
      membership && {
        kind: 'member',
        tenantId,
        plan: membership.plan,
        memberId: membership.id,
        email: person.email,
        role: membership.role,
        signedInAt: person.signedInAt,
      }
    );
  }

  private async membership(tenantId: string, email: string): Promise<MemberAccess | null> {
    const key = `${tenantId}|${email}`;
    const now = this.clock.now().getTime();
    return this.members.getOrLoad(key, now, async () => ({
      value: await this.tenantMembers.findAccess(tenantId, email),
      keepUntil: now + this.cacheMs,
    }));
  }

  /** Drops a member from this instance's cache at once (removed, or given another role); publish a `member` invalidation for the others. */
  forgetMember(tenantId: string, email: string): void {
    this.members.delete(`${tenantId}|${email}`);
  }

  private forgetChanged(message: CacheInvalidation): void {
    if (message.kind === 'member') this.members.deleteWhere((member) => member?.id === message.memberId);
    if (message.kind === 'tenant') this.members.deleteWhere((member) => member?.tenantId === message.tenantId);
  }

  /**
   * Records a console token's use, for the idle limit: at most once a minute per token and
   * instance, before the request goes on (so the next request, on any instance, sees it). A failure
   * is logged, never the request's.
   */
  private async touch(key: string, token: string, now: number): Promise<void> {
    if ((this.lastUsedWrites.get(key) ?? 0) > now - LAST_USED_RESOLUTION_MS) return;
    if (this.lastUsedWrites.size >= MAX_CACHE_ENTRIES) this.lastUsedWrites.clear();
    this.lastUsedWrites.set(key, now);
    await this.accessTokens
      .recordUse(sha256(token), new Date(now))
      .catch((error: Error) => this.logger.warn(`Could not record a console token's use: ${error.message}`));
  }

  /**
   * A token's issue time is its sign-in: recorded on every membership of the address when the
   * token is first looked up (once per cache period). A failure is logged, never the request's.
   */
  private async recordSignIn(email: string, at: Date): Promise<void> {
    try {
      await this.tenantMembers.recordSignIn(email, at);
    } catch (error) {
      this.logger.warn(`Could not record a member's sign-in: ${(error as Error).message}`);
    }
  }
}
