import { Inject, Injectable } from '@nestjs/common';
import { Clock, isSecretShaped, LookupBatcher, SESAME_CONFIG, SesameConfig, sha256, TtlCache } from '@sesame/common';
import { ClientPrincipal } from '@sesame/guards';
import { AccessTokenRepository, UserInfoTokenRow } from '@sesame/entities';
import { IntrospectionResponse, UserInfoResponse } from './dto/token.dto';
import { FailedLookupLimiter } from './failed-lookup-limiter';
import { IdTokenService } from './id-token.service';
import { invalidToken } from './oauth-errors';

const INVALID = 'The access token is invalid, expired or revoked';

type TokenRow = UserInfoTokenRow;

/** The user an access token was issued to. */
export interface TokenOwner {
  userId: string;
  organizationId: string;
  email: string;
}

const MAX_CACHED_TOKENS = 100_000;

/**
 * One token batch out at a time per instance. A lookup still goes out at once when none is out, so
 * light load pays nothing; under load, every lookup that arrived meanwhile goes out in the next
 * query. The database's work per query, not per token, is what costs: uncached userinfo on Fastify
 * (`npm run bench -- userinfo`, 100 k tokens) answered 9.2 k / 13.3 k req/s at 10 / 50 connections
 * with one batch out, 7.6 k / 12.0 k with two and 5.5 k / 9.9 k with five.
 */
const TOKEN_BATCHES_IN_FLIGHT = 1;

/** Bounds one batch's array parameter and result, and how long it holds a connection; at 50 concurrent requests it is never reached. */
const MAX_TOKENS_PER_BATCH = 100;

function isActive(row: TokenRow, now: Date): boolean {
  return !row.revoked && !row.blocked && row.expires_at.getTime() > now.getTime();
}

function userInfoOf(row: TokenRow): UserInfoResponse {
  return {
    sub: row.user_id,
    email: row.email,
    email_verified: row.email_verified,
    // OpenID Connect Core §5.3.2: a claim without a value is left out, never null.
    ...(row.name === null ? {} : { name: row.name }),
    organization_id: row.organization_id,
    updated_at: Math.floor(row.updated_at.getTime() / 1000),
  };
}

/**
 * Reading, checking and revoking access tokens. userinfo answers are cached in process for
 * ACCESS_TOKEN_CACHE_SECONDS (default 5): a token revoked here stops working at once, one revoked
 * through another instance, or whose user was blocked or deleted, within that time.
 */
@Injectable()
export class AccessTokensService {
  private readonly userInfoCache = new TtlCache<string, UserInfoResponse>(MAX_CACHED_TOKENS);
  private readonly cacheMs: number;
  /**
   * Token rows by the hash's base64 (the cache key). Under load, the pg client's work per query
   * (the socket write, parsing the result, copying the query config) was most of userinfo's CPU
   * time; concurrent lookups now share one query.
   */
  private readonly tokenLookups: LookupBatcher<string, TokenRow>;

  constructor(
    private readonly tokens: AccessTokenRepository,
    private readonly clock: Clock,
    private readonly idTokens: IdTokenService,
    private readonly failedLookups: FailedLookupLimiter,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.cacheMs = config.auth.accessTokenCacheSeconds * 1000;
    this.tokenLookups = new LookupBatcher((keys) => this.findTokens(keys), {
      maxInFlight: TOKEN_BATCHES_IN_FLIGHT,
      maxBatch: MAX_TOKENS_PER_BATCH,
    });
  }

  /**
   * GET /v1/userinfo, the hottest path: one lookup by the token's hash (primary key) joined to
   * its user (primary key), shared with concurrent requests (see tokenLookups). Expired, revoked
   * or unknown tokens, and blocked users, get 401.
   */
  async userInfo(token: string | undefined, ip: string): Promise<UserInfoResponse> {
    if (token === undefined) throw invalidToken(null);
    if (!isSecretShaped(token)) throw invalidToken(INVALID);
    const hash = sha256(token);
    const cacheKey = hash.toString('base64');
    const now = this.clock.now();
    return this.userInfoCache.getOrLoad(cacheKey, now.getTime(), async () => {
      const row = await this.activeRow(cacheKey, ip, now);
      return { value: userInfoOf(row), keepUntil: Math.min(now.getTime() + this.cacheMs, row.expires_at.getTime()) };
    });
  }

  /** Whose an active access token is (as userinfo checks it, uncached): the user acting on their own things. 401 otherwise. */
  async owner(token: string | undefined, ip: string): Promise<TokenOwner> {
    if (token === undefined) throw invalidToken(null);
    if (!isSecretShaped(token)) throw invalidToken(INVALID);
    const row = await this.activeRow(sha256(token).toString('base64'), ip, this.clock.now());
    return { userId: row.user_id, organizationId: row.organization_id, email: row.email };
  }

  private async activeRow(cacheKey: string, ip: string, now: Date): Promise<TokenRow> {
    this.failedLookups.check(ip);
    const row = await this.tokenLookups.load(cacheKey);
    // Only tokens that never existed count against the address: expired and revoked ones are
    // what applications meet every day.
    if (!row) this.failedLookups.record(ip);
    if (!row || !isActive(row, now)) throw invalidToken(INVALID);
    return row;
  }

  private async findTokens(keys: string[]): Promise<Map<string, TokenRow>> {
    const hashes = keys.map((key) => Buffer.from(key, 'base64'));
    const rows = await this.tokens.findForUserInfo(hashes);
    return new Map(rows.map((row) => [row.hash.toString('base64'), row]));
  }

  /**
   * RFC 7009: revokes a token issued to this client. Unknown tokens, and tokens of other
   * clients, are answered the same way (200) and left alone.
   */
  async revoke(client: ClientPrincipal, token: string): Promise<void> {
    if (!isSecretShaped(token)) return;
    await this.revokeByHash(client.applicationId, sha256(token), this.clock.now());
  }

  /** Revokes an application's token by its hash (RFC 7009, or a replayed code's token), here and in this instance's cache. */
  async revokeByHash(applicationId: string, hash: Buffer, now: Date): Promise<void> {
    await this.tokens.revoke(applicationId, hash, now);
    this.userInfoCache.delete(hash.toString('base64'));
  }

  /** RFC 7662: only tokens of the calling client's organization are reported active. */
  async introspect(client: ClientPrincipal, token: string): Promise<IntrospectionResponse> {
    if (!isSecretShaped(token)) return { active: false };
    const row = await this.tokens.findActiveForIntrospection(sha256(token), client.organizationId, this.clock.now());
    if (!row) return { active: false };
    return {
      active: true,
      client_id: row.client_id,
      sub: row.user_id,
      exp: Math.floor(row.expires_at.getTime() / 1000),
      iat: Math.floor(row.created_at.getTime() / 1000),
      iss: this.idTokens.issuerUrl,
      token_type: 'Bearer',
      email: row.email,
      org_id: client.organizationId,
    };
  }
}
