import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PasskeyCredential } from './passkey.repository';

/** A fresh login's access token, as a direct registration checks it: whose it is and when the user signed in. */
export interface FreshLoginToken {
  hash: Buffer;
  userId: string;
  organizationId: string;
  email: string;
  authTime: Date;
}

/** A direct registration's grant (one per access token), with the challenge it was just given or that was just claimed. */
export interface TokenRegistrationGrant {
  id: string;
  organizationId: string;
  userId: string;
  challenge: string;
}

type Row = Record<string, unknown>;

/**
 * The SQL of passkeys on an application's own pages (direct authentication): passkeys kept per
 * relying party (`passkey.rp_id`, NULL for the hosted page's), and registrations granted by the
 * access token a direct login just issued (`passkey_challenge.access_token_hash`, one grant per token).
 * Storing the passkey itself, its use and the sign-in challenges are PasskeyRepository's and
 * PasskeyChallengeRepository's.
 */
@Injectable()
export class DirectPasskeyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * As PasskeyRepository.lockForSignIn (the passkey and its user's row locked), and only a passkey registered under `rpId` (a hosted page's
   * passkey, rp_id NULL, only when `rpId` is the hosted page's own `hostedRpId`).
   */
  async lockForSignIn(
    manager: EntityManager,
    organizationId: string,
    credentialId: Buffer,
    rpId: string,
    hostedRpId: string,
  ): Promise<PasskeyCredential | null> {
    const rows: Row[] = await manager.query(
      `SELECT p.id, p.organization_id, p.user_id, u.email, p.credential_id, p.public_key, p.sign_count, p.transports
         FROM passkey p JOIN "user" u ON u.id = p.user_id
        WHERE p.credential_id = $2 AND p.organization_id = $1 AND u.organization_id = $1 AND NOT u.blocked
          AND (p.rp_id = $3 OR (p.rp_id IS NULL AND $3 = $4))
          FOR UPDATE OF p, u`,
      [organizationId, credentialId, rpId, hostedRpId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id as string,
      organizationId: row.organization_id as string,
      userId: row.user_id as string,
      email: row.email as string,
      credentialId: row.credential_id as Buffer,
      publicKey: row.public_key as Buffer,
      signCount: Number(row.sign_count),
      transports: row.transports as string[],
    };
  }

  /** Records the relying party a passkey was just registered under (in the registration's transaction). */
  async setRpId(manager: EntityManager, passkeyId: string, rpId: string): Promise<void> {
    await manager.query('UPDATE passkey SET rp_id = $2 WHERE id = $1', [passkeyId, rpId]);
  }

  /**
   * The access token of this hash when it is the application's, active, issued from a login's
   * code (not an autologin stop's) whose sign-in happened at or after `signedInSince`, and its user
   * is not blocked; null otherwise.
   */
  async findFreshLoginToken(hash: Buffer, applicationId: string, now: Date, signedInSince: Date): Promise<FreshLoginToken | null> {
    const rows: Row[] = await this.dataSource.query(
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
   * PasskeyChallengeRepository.markRegistered, so a failed ceremony may ask for a new challenge).
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
