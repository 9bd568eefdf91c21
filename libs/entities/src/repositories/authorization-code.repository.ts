import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { deleteRows } from './batch-delete';
import { prepared, queryPrepared } from './prepared-query';

export interface NewAuthorizationCode {
  hash: Buffer;
  applicationId: string;
  userId: string;
  redirectUri: string;
  codeChallenge: string | null;
  authTime: Date;
  nonce: string | null;
  autologin: boolean;
  expiresAt: Date;
  createdAt: Date;
}

/** What claimAndIssueToken read of the code and its user. */
export interface ClaimedCode {
  user_id: string;
  redirect_uri: string;
  code_challenge: string | null;
  auth_time: Date;
  nonce: string | null;
  autologin: boolean;
  email: string;
  email_verified: boolean;
  organization_id: string;
  blocked: boolean;
  /** True when the grant checks passed and the access token was stored. */
  granted: boolean;
}

/** What /v1/verify asks of the code: its hash, the caller's, and what the request checks it against. */
export interface CodeExchange {
  codeHash: Buffer;
  applicationId: string;
  now: Date;
  redirectUri: string;
  accessTokenHash: Buffer;
  expiresAt: Date;
  /** BASE64URL(SHA-256(code_verifier)), or null when no verifier was sent. */
  challenge: string | null;
  clientHasSecret: boolean;
  autologin: boolean;
}

/**
 * The exchanges of concurrent requests in one statement (one round trip, one commit); each row of
 * `wanted` is one request, numbered by its position. Locking the usable codes is the claim: of
 * concurrent redemptions exactly one gets the row (a redemption committed meanwhile makes the row
 * fail `used_at IS NULL` when it is locked; two requests for one code in the same batch update it
 * once, and only the request whose row was used gets it back). The codes are locked in the order of
 * their hashes, so that two statements holding the same codes in other orders cannot deadlock.
 * The code is used up even when the checks fail, so a wrong verifier or redirect_uri cannot be
 * retried. The code records the hash of its token (for the replay rule), and the token is stored
 * only when the checks pass: the exact redirect_uri, a user not blocked, and PKCE — the code's
 * challenge equals BASE64URL(SHA-256(code_verifier)) (`challenge`, computed by the service), or
 * the code has no challenge, no verifier was sent (`challenge` null: downgrade protection), the
 * client has a secret, and the client said it handles an autologin walk exactly when the code is a
 * walk stop's.
 */
const CLAIM_CODES_AND_ISSUE_TOKENS = prepared(
  'claim-codes-and-issue-tokens',
  `WITH wanted AS (
     SELECT * FROM unnest($1::bytea[], $2::uuid[], $3::timestamptz[], $4::text[], $5::bytea[], $6::timestamptz[], $7::text[], $8::boolean[], $9::boolean[])
       WITH ORDINALITY AS w(code_hash, application_id, now, redirect_uri, token_hash, token_expires_at, challenge, client_has_secret, autologin, position)),
   claimable AS (
     SELECT c.hash, w.position FROM authorization_code c JOIN wanted w ON c.hash = w.code_hash AND c.application_id = w.application_id
      WHERE c.used_at IS NULL AND c.expires_at > w.now
      ORDER BY c.hash
        FOR UPDATE OF c),
   claimed AS (
     UPDATE authorization_code c SET used_at = w.now, access_token_hash = w.token_hash
       FROM claimable k JOIN wanted w ON w.position = k.position
      WHERE c.hash = k.hash
      RETURNING w.position, w.application_id, w.now, w.token_hash, w.token_expires_at,
                c.user_id, c.redirect_uri, c.code_challenge, c.auth_time, c.nonce, c.autologin,
                (c.redirect_uri = w.redirect_uri
                 AND (c.code_challenge = w.challenge OR (c.code_challenge IS NULL AND w.challenge IS NULL AND w.client_has_secret AND c.autologin = w.autologin))) AS request_matches),
   checked AS (
     SELECT c.*, u.email, u.email_verified, u.organization_id, u.blocked, (c.request_matches AND NOT u.blocked) AS granted
       FROM claimed c JOIN "user" u ON u.id = c.user_id),
   issued AS (
     INSERT INTO access_token (hash, application_id, user_id, organization_id, expires_at, created_at)
     SELECT token_hash, application_id, user_id, organization_id, token_expires_at, now FROM checked WHERE granted
     RETURNING 1)
   SELECT position, user_id, redirect_uri, code_challenge, auth_time, nonce, autologin, email, email_verified, organization_id, blocked, granted
     FROM checked`,
);

/** authorization_code: single-use codes (only their hashes), claimed by /v1/verify, and their retention. */
@Injectable()
export class AuthorizationCodeRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** In the caller's transaction (the login that issues the code). */
  async insert(manager: EntityManager, code: NewAuthorizationCode): Promise<void> {
    await manager.query(
      `INSERT INTO authorization_code (hash, application_id, user_id, redirect_uri, code_challenge, auth_time, nonce, autologin, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        code.hash,
        code.applicationId,
        code.userId,
        code.redirectUri,
        code.codeChallenge,
        code.authTime,
        code.nonce,
        code.autologin,
        code.expiresAt,
        code.createdAt,
      ],
    );
  }

  /**
   * Claims each request's code and, when its checks pass, stores its access token (the one
   * statement that writes access_token rows, kept with the claim it depends on). Answers in the
   * order of `exchanges`: null where the code is not usable by that application now.
   */
  async claimAndIssueTokens(exchanges: CodeExchange[]): Promise<(ClaimedCode | null)[]> {
    const column = <T>(pick: (exchange: CodeExchange) => T) => exchanges.map(pick);
    const rows = await queryPrepared<ClaimedCode & { position: string }>(this.dataSource, CLAIM_CODES_AND_ISSUE_TOKENS, [
      column((exchange) => exchange.codeHash),
      column((exchange) => exchange.applicationId),
      column((exchange) => exchange.now),
      column((exchange) => exchange.redirectUri),
      column((exchange) => exchange.accessTokenHash),
      column((exchange) => exchange.expiresAt),
      column((exchange) => exchange.challenge),
      column((exchange) => exchange.clientHasSecret),
      column((exchange) => exchange.autologin),
    ]);
    const claimed: (ClaimedCode | null)[] = exchanges.map(() => null);
    for (const { position, ...code } of rows) claimed[Number(position) - 1] = code;
    return claimed;
  }

  /** Whether the application's code was used, and the hash of the token issued from it. */
  async findUse(codeHash: Buffer, applicationId: string): Promise<{ usedAt: Date | null; accessTokenHash: Buffer | null } | null> {
    const rows: { used_at: Date | null; access_token_hash: Buffer | null }[] = await this.dataSource.query(
      'SELECT used_at, access_token_hash FROM authorization_code WHERE hash = $1 AND application_id = $2',
      [codeHash, applicationId],
    );
    return rows[0] ? { usedAt: rows[0].used_at, accessTokenHash: rows[0].access_token_hash } : null;
  }

  /** Retention: codes never used that expired before `expiredBefore`, at most `limit`, skipping rows another transaction holds. */
  deleteUnusedExpired(expiredBefore: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM authorization_code WHERE hash IN (
         SELECT hash FROM authorization_code WHERE used_at IS NULL AND expires_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [expiredBefore, limit],
    );
  }

  /**
   * Retention: codes used before `usedBefore` from which no token is still alive at `now`. A used
   * code is what makes a replay revoke its tokens (RFC 6749 §4.1.2), so it stays while one of them
   * lives; `usedBefore` (a day past the longest lifetime of a token) keeps the scan off codes whose
   * tokens are normally still alive, and the NOT EXISTS covers tokens issued under a longer lifetime.
   */
  deleteUsedWithoutLiveTokens(usedBefore: Date, now: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM authorization_code WHERE hash IN (
         SELECT c.hash FROM authorization_code c
          WHERE c.used_at IS NOT NULL AND c.used_at < $1
            AND NOT EXISTS (SELECT 1 FROM access_token t WHERE t.hash = c.access_token_hash AND t.revoked_at IS NULL AND t.expires_at > $2)
          LIMIT $3 FOR UPDATE OF c SKIP LOCKED)`,
      [usedBefore, now, limit],
    );
  }
}
