import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { deleteRows } from './batch-delete';

/** A direct registration's grant (one per access token), with the challenge it was just given or that was just claimed. */
export interface TokenRegistrationGrant {
  id: string;
  organizationId: string;
  userId: string;
  challenge: string;
}

/** A sign-in challenge, claimed: the organization and application it was issued for. */
export interface ClaimedSignInChallenge {
  id: string;
  organizationId: string;
  applicationId: string;
  challenge: string;
}

/** A registration grant (what an e-mailed login just completed allows), with its current challenge. */
export interface RegistrationGrant {
  id: string;
  organizationId: string;
  applicationId: string;
  userId: string;
  loginAttemptId: string;
  challenge: string | null;
  expiresAt: Date;
}

type Row = Record<string, unknown>;

const GRANT_COLUMNS = 'id, organization_id, application_id, user_id, login_attempt_id, challenge, expires_at';

function grant(row: Row): RegistrationGrant {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    applicationId: row.application_id as string,
    userId: row.user_id as string,
    loginAttemptId: row.login_attempt_id as string,
    challenge: (row.challenge as string | null) ?? null,
    expiresAt: row.expires_at as Date,
  };
}

/**
 * passkey_challenge: the one-time challenges of passkey ceremonies, each bound to what it was
 * issued for (`binding`: a digest of the browser's secret and the authorize request). Every claim
 * is one conditional UPDATE (unused, unexpired, same binding), so of concurrent uses exactly one wins.
 */
@Injectable()
export class PasskeyChallengeRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A sign-in challenge for this authorize request in this browser. */
  async insertSignIn(challenge: {
    organizationId: string;
    applicationId: string;
    binding: Buffer;
    challenge: string;
    expiresAt: Date;
    createdAt: Date;
  }): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO passkey_challenge (purpose, organization_id, application_id, binding, challenge, expires_at, created_at)
       VALUES ('authentication', $1, $2, $3, $4, $5, $6)`,
      [challenge.organizationId, challenge.applicationId, challenge.binding, challenge.challenge, challenge.expiresAt, challenge.createdAt],
    );
  }

  /** Uses a sign-in challenge once: only for the binding and application it was issued for, before it expires. */
  async claimSignIn(
    manager: EntityManager,
    challenge: string,
    binding: Buffer,
    applicationId: string,
    now: Date,
  ): Promise<ClaimedSignInChallenge | null> {
    const rows: Row[] = await manager.query(
      `WITH claimed AS (
         UPDATE passkey_challenge SET used_at = $4
          WHERE challenge = $1 AND purpose = 'authentication' AND binding = $2 AND application_id = $3
            AND used_at IS NULL AND expires_at > $4
          RETURNING id, organization_id, application_id, challenge)
       SELECT * FROM claimed`,
      [challenge, binding, applicationId, now],
    );
    const row = rows[0];
    return row
      ? {
          id: row.id as string,
          organizationId: row.organization_id as string,
          applicationId: row.application_id as string,
          challenge: row.challenge as string,
        }
      : null;
  }

  /** What an e-mailed login just completed in this browser allows: registering one passkey for its user, until `expiresAt`. */
  async insertRegistrationGrant(
    manager: EntityManager,
    grant: {
      organizationId: string;
      applicationId: string;
      userId: string;
      loginAttemptId: string;
      binding: Buffer;
      expiresAt: Date;
      createdAt: Date;
    },
  ): Promise<string> {
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO passkey_challenge (purpose, organization_id, application_id, user_id, login_attempt_id, binding, expires_at, created_at)
       VALUES ('registration', $1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [grant.organizationId, grant.applicationId, grant.userId, grant.loginAttemptId, grant.binding, grant.expiresAt, grant.createdAt],
    );
    return rows[0].id;
  }

  /** A fresh challenge for an unused, unexpired grant of this browser (asking again replaces the previous one); null otherwise. */
  async challengeRegistration(id: string, binding: Buffer, challenge: string, now: Date): Promise<RegistrationGrant | null> {
    const rows: Row[] = await this.dataSource.query(
      `WITH challenged AS (
         UPDATE passkey_challenge SET challenge = $3
          WHERE id = $1 AND purpose = 'registration' AND binding = $2 AND used_at IS NULL AND expires_at > $4
          RETURNING ${GRANT_COLUMNS})
       SELECT * FROM challenged`,
      [id, binding, challenge, now],
    );
    return rows[0] ? grant(rows[0]) : null;
  }

  /**
   * Takes the grant's current challenge, once (it is erased whatever the verification finds); the
   * grant itself is used up by useGrant, so a failed ceremony can ask for a new challenge.
   */
  async claimRegistrationChallenge(manager: EntityManager, id: string, binding: Buffer, now: Date): Promise<RegistrationGrant | null> {
    const rows: Row[] = await manager.query(
      `WITH claimed AS (
         UPDATE passkey_challenge g SET challenge = NULL
           FROM (SELECT id, challenge FROM passkey_challenge WHERE id = $1 FOR UPDATE) before
          WHERE g.id = before.id AND g.purpose = 'registration' AND g.binding = $2 AND g.challenge IS NOT NULL
            AND g.used_at IS NULL AND g.expires_at > $3
          RETURNING g.id, g.organization_id, g.application_id, g.user_id, g.login_attempt_id, before.challenge, g.expires_at)
       SELECT * FROM claimed`,
      [id, binding, now],
    );
    return rows[0] ? grant(rows[0]) : null;
  }

  /** Uses the grant up if it is not yet (one passkey per e-mailed login); false when it already was. */
  async useGrant(manager: EntityManager, id: string, now: Date): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `WITH used AS (UPDATE passkey_challenge SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING id) SELECT * FROM used`,
      [id, now],
    );
    return rows.length > 0;
  }

  /**
   * Sign-in challenges (purpose `authentication`) that expired before `before`, at most `limit` of
   * them: every options request adds one, and an expired one is never claimed, so they go at once.
   */
  deleteExpiredSignInsBefore(before: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM passkey_challenge WHERE id IN (
         SELECT id FROM passkey_challenge WHERE expires_at < $1 AND purpose = 'authentication' LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
  }

  /** Retention: challenges and grants that expired before `before`, at most `limit` of them. */
  deleteExpiredBefore(before: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM passkey_challenge WHERE id IN (
         SELECT id FROM passkey_challenge WHERE expires_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
  }

  /**
   * Gives the token's grant a fresh challenge for this binding (the application and the page's
   * origin), creating the grant on the first request; null when the grant was used (a passkey was
   * registered with it) or has expired.
   */
  async challengeTokenGrant(grant: {
    organizationId: string;
    applicationId: string;
    userId: string;
    accessTokenHash: Buffer;
    binding: Buffer;
    challenge: string;
    expiresAt: Date;
    now: Date;
  }): Promise<TokenRegistrationGrant | null> {
    const rows: Row[] = await this.dataSource.query(
      `INSERT INTO passkey_challenge (purpose, organization_id, application_id, user_id, access_token_hash, binding, challenge, expires_at, created_at)
       VALUES ('registration', $1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (access_token_hash) WHERE access_token_hash IS NOT NULL
       DO UPDATE SET challenge = EXCLUDED.challenge, binding = EXCLUDED.binding
        WHERE passkey_challenge.used_at IS NULL AND passkey_challenge.expires_at > $8 AND passkey_challenge.application_id = $2
       RETURNING id, organization_id, user_id, challenge`,
      [
        grant.organizationId,
        grant.applicationId,
        grant.userId,
        grant.accessTokenHash,
        grant.binding,
        grant.challenge,
        grant.expiresAt,
        grant.now,
      ],
    );
    return rows[0] ? tokenGrant(rows[0]) : null;
  }
  /**
   * Takes the token's grant's current challenge, once, when it is `challenge` and was given for
   * this binding (it is erased whatever the verification then finds; the grant is used up by
   * PasskeyChallengeRepository.useGrant, so a failed ceremony may ask for a new challenge).
   */
  async claimTokenGrantChallenge(
    manager: EntityManager,
    accessTokenHash: Buffer,
    challenge: string,
    binding: Buffer,
    now: Date,
  ): Promise<TokenRegistrationGrant | null> {
    const rows: Row[] = await manager.query(
      `WITH claimed AS (
         UPDATE passkey_challenge SET challenge = NULL
          WHERE access_token_hash = $1 AND purpose = 'registration' AND challenge = $2 AND binding = $3
            AND used_at IS NULL AND expires_at > $4
          RETURNING id, organization_id, user_id, $2::text AS challenge)
       SELECT * FROM claimed`,
      [accessTokenHash, challenge, binding, now],
    );
    return rows[0] ? tokenGrant(rows[0]) : null;
  }
}

function tokenGrant(row: Row): TokenRegistrationGrant {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    userId: row.user_id as string,
    challenge: row.challenge as string,
  };
}
