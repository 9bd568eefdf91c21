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
 * The whole exchange in one statement (one round trip, one commit). The conditional UPDATE is the
 * claim: of concurrent redemptions exactly one gets the row. The code is used up even when the
 * checks fail, so a wrong verifier or redirect_uri cannot be retried. The code records the hash
 * of its token (for the replay rule), and the token is stored only when the checks pass: the
 * exact redirect_uri, a user not blocked, and PKCE — the code's challenge equals
 * BASE64URL(SHA-256(code_verifier)) ($7, computed by the service), or the code has no challenge,
 * no verifier was sent ($7 null: downgrade protection), the client has a secret ($8), and the
 * client said it handles an autologin walk ($9) exactly when the code is a walk stop's.
 */
const CLAIM_CODE_AND_ISSUE_TOKEN = prepared(
  'claim-code-and-issue-token',
  `WITH claimed AS (
     UPDATE authorization_code SET used_at = $3, access_token_hash = $5
      WHERE hash = $1 AND application_id = $2 AND used_at IS NULL AND expires_at > $3
      RETURNING user_id, redirect_uri, code_challenge, auth_time, nonce, autologin),
   checked AS (
     SELECT c.*, u.email, u.email_verified, u.organization_id, u.blocked,
            (c.redirect_uri = $4 AND NOT u.blocked
             AND (c.code_challenge = $7 OR (c.code_challenge IS NULL AND $7::text IS NULL AND $8::boolean AND c.autologin = $9::boolean))) AS granted
       FROM claimed c JOIN "user" u ON u.id = c.user_id),
   issued AS (
     INSERT INTO access_token (hash, application_id, user_id, organization_id, expires_at, created_at)
     SELECT $5, $2, user_id, organization_id, $6, $3 FROM checked WHERE granted
     RETURNING 1)
   SELECT * FROM checked`,
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
   * Claims the code and, when the checks pass, stores its access token (the one statement that
   * writes access_token rows, kept with the claim it depends on). Null when the code is not
   * usable by this application now.
   */
  async claimAndIssueToken(exchange: CodeExchange): Promise<ClaimedCode | null> {
    const rows = await queryPrepared<ClaimedCode>(this.dataSource, CLAIM_CODE_AND_ISSUE_TOKEN, [
      exchange.codeHash,
      exchange.applicationId,
      exchange.now,
      exchange.redirectUri,
      exchange.accessTokenHash,
      exchange.expiresAt,
      exchange.challenge,
      exchange.clientHasSecret,
      exchange.autologin,
    ]);
    return rows[0] ?? null;
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
