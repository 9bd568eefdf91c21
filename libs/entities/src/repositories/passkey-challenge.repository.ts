import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { deleteRows } from './batch-delete';

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
   * grant itself is used up by markRegistered, so a failed ceremony can ask for a new challenge.
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

  /** The grant is used: one passkey per e-mailed login. */
  async markRegistered(manager: EntityManager, id: string, now: Date): Promise<void> {
    await manager.query('UPDATE passkey_challenge SET used_at = $2 WHERE id = $1', [id, now]);
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
}
