import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { deleteRows } from './batch-delete';
import { prepared, queryPrepared } from './prepared-query';

/** A fresh login's access token, as a direct registration checks it: whose it is and when the user signed in. */
export interface FreshLoginToken {
  hash: Buffer;
  userId: string;
  organizationId: string;
  email: string;
  authTime: Date;
}

/** A token as userinfo reads it, with its user; whether it is active is decided per request. */
export interface UserInfoTokenRow {
  hash: Buffer;
  user_id: string;
  email: string;
  email_verified: boolean;
  name: string | null;
  organization_id: string;
  updated_at: Date;
  expires_at: Date;
  revoked: boolean;
  blocked: boolean;
}

/** An active token as introspection reports it. */
export interface IntrospectedTokenRow {
  client_id: string;
  user_id: string;
  email: string;
  expires_at: Date;
  created_at: Date;
}

/** A console session: the person a console access token belongs to, and when it was issued (their sign-in) and expires. */
export interface ConsoleSession {
  userId: string;
  email: string;
  issuedAt: Date;
  expiresAt: Date;
}

/**
 * userinfo's one lookup, for a batch of tokens: each by its hash (primary key) joined to its user
 * (primary key). Whether a token is active is decided per request, with that request's time.
 */
const FIND_TOKENS = prepared(
  'find-tokens',
  `SELECT t.hash, u.id AS user_id, u.email, u.email_verified, u.name, u.organization_id, u.updated_at, t.expires_at,
          t.revoked_at IS NOT NULL AS revoked, u.blocked
     FROM access_token t JOIN "user" u ON u.id = t.user_id
    WHERE t.hash = ANY($1::bytea[])`,
);

/** access_token: tokens are issued with their code (AuthorizationCodeRepository.claimAndIssueToken), read, revoked and purged here. */
@Injectable()
export class AccessTokenRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The tokens of these hashes that exist, with their users (a prepared statement: userinfo's hot path). */
  findForUserInfo(hashes: Buffer[]): Promise<UserInfoTokenRow[]> {
    return queryPrepared<UserInfoTokenRow>(this.dataSource, FIND_TOKENS, [hashes]);
  }

  /** The token of this hash when it is active at `now`, belongs to the organization and its user is not blocked. */
  async findActiveForIntrospection(hash: Buffer, organizationId: string, now: Date): Promise<IntrospectedTokenRow | null> {
    const rows: IntrospectedTokenRow[] = await this.dataSource.query(
      `SELECT a.client_id, t.user_id, u.email, t.expires_at, t.created_at
         FROM access_token t
         JOIN "user" u ON u.id = t.user_id
         JOIN application a ON a.id = t.application_id
        WHERE t.hash = $1 AND t.organization_id = $2 AND t.revoked_at IS NULL AND t.expires_at > $3 AND NOT u.blocked`,
      [hash, organizationId, now],
    );
    return rows[0] ?? null;
  }

  /**
   * The session of this console token: unexpired and unrevoked at `now`, issued to the system
   * tenant's application, of an unblocked user with a verified address, issued after `issuedAfter`
   * and last used (or issued) after `usedAfter`.
   */
  async findConsoleSession(hash: Buffer, now: Date, issuedAfter: Date, usedAfter: Date): Promise<ConsoleSession | null> {
    const rows: ConsoleSession[] = await this.dataSource.query(
      `SELECT u.id AS "userId", u.email, t.created_at AS "issuedAt", t.expires_at AS "expiresAt"
         FROM access_token t
         JOIN "user" u ON u.id = t.user_id
         JOIN organization o ON o.id = t.organization_id
         JOIN tenant s ON s.id = o.tenant_id
        WHERE t.hash = $1 AND t.revoked_at IS NULL AND t.expires_at > $2 AND s.system AND u.email_verified AND NOT u.blocked
          AND t.created_at > $3 AND COALESCE(t.last_used_at, t.created_at) > $4`,
      [hash, now, issuedAfter, usedAfter],
    );
    return rows[0] ?? null;
  }

  /** Records a token's use at `at` (the console's idle limit reads it). */
  async recordUse(hash: Buffer, at: Date): Promise<void> {
    await this.dataSource.query('UPDATE access_token SET last_used_at = $2 WHERE hash = $1', [hash, at]);
  }

  /** Revokes the application's token of this hash, if it is live. */
  async revoke(applicationId: string, hash: Buffer, now: Date): Promise<void> {
    await this.dataSource.query('UPDATE access_token SET revoked_at = $3 WHERE hash = $1 AND application_id = $2 AND revoked_at IS NULL', [
      hash,
      applicationId,
      now,
    ]);
  }

  /** Retention: tokens that expired before `before`, at most `limit` of them, skipping rows another transaction holds. */
  deleteExpired(before: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM access_token WHERE hash IN (
         SELECT hash FROM access_token WHERE expires_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
  }

  /** Retention: tokens revoked before `before` (a separate statement from deleteExpired, so each uses its own index). */
  deleteRevoked(before: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM access_token WHERE hash IN (
         SELECT hash FROM access_token WHERE revoked_at IS NOT NULL AND revoked_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
  }

  /** In the caller's transaction when `manager` is given. */
  async revokeAllOfApplication(manager: EntityManager | null, applicationId: string, at: Date): Promise<void> {
    await (manager ?? this.dataSource).query('UPDATE access_token SET revoked_at = $2 WHERE application_id = $1 AND revoked_at IS NULL', [
      applicationId,
      at,
    ]);
  }
  /**
   * The access token of this hash when it is the application's, active, issued from a login's
   * code (not an autologin stop's) whose sign-in happened at or after `signedInSince`, and its user
   * is not blocked; null otherwise.
   */
  async findFreshLoginToken(hash: Buffer, applicationId: string, now: Date, signedInSince: Date): Promise<FreshLoginToken | null> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT t.hash, t.user_id, u.organization_id, u.email, c.auth_time
         FROM access_token t
         JOIN authorization_code c ON c.access_token_hash = t.hash
         JOIN "user" u ON u.id = t.user_id
        WHERE t.hash = $1 AND t.application_id = $2 AND t.revoked_at IS NULL AND t.expires_at > $3
          AND NOT c.autologin AND c.auth_time >= $4 AND NOT u.blocked`,
      [hash, applicationId, now, signedInSince],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      hash: row.hash as Buffer,
      userId: row.user_id as string,
      organizationId: row.organization_id as string,
      email: row.email as string,
      authTime: row.auth_time as Date,
    };
  }
}
