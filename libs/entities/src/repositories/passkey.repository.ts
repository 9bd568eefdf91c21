import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

export const PASSKEY_DEVICE_TYPES = ['singleDevice', 'multiDevice'] as const;
export type PasskeyDeviceType = (typeof PASSKEY_DEVICE_TYPES)[number];

/** A passkey as its user's list shows it (never its public key). */
export interface PasskeySummary {
  id: string;
  organizationId: string;
  userId: string;
  name: string;
  deviceType: PasskeyDeviceType;
  backedUp: boolean;
  transports: string[];
  /** The RP ID (a host) of the application page it was made on; null: the hosted login page's. It signs in only there. */
  rpId: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** What a sign-in checks an assertion against, with the user it signs in. */
export interface PasskeyCredential {
  id: string;
  organizationId: string;
  userId: string;
  email: string;
  credentialId: Buffer;
  /** COSE-encoded. */
  publicKey: Buffer;
  signCount: number;
  transports: string[];
}

export interface NewPasskey {
  userId: string;
  credentialId: Buffer;
  publicKey: Buffer;
  signCount: number;
  deviceType: PasskeyDeviceType;
  backedUp: boolean;
  transports: string[];
  name: string;
  /** The RP ID it was registered under; null: the hosted page's. */
  rpId: string | null;
  createdAt: Date;
}

/** What the e-mail about a new passkey tells its user. */
export interface PasskeyRegisteredNotice {
  email: string;
  organization: string;
  name: string;
  createdAt: Date;
  /** The address it was registered from (its audit event's), when known. */
  ip: string | null;
}

type Row = Record<string, unknown>;

const SUMMARY_COLUMNS = `id, organization_id, user_id, name, device_type, backed_up, transports, rp_id, created_at, last_used_at`;

function summary(row: Row): PasskeySummary {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    userId: row.user_id as string,
    name: row.name as string,
    deviceType: row.device_type as PasskeyDeviceType,
    backedUp: row.backed_up as boolean,
    transports: row.transports as string[],
    rpId: (row.rp_id as string | null) ?? null,
    createdAt: row.created_at as Date,
    lastUsedAt: (row.last_used_at as Date | null) ?? null,
  };
}

/** passkey: the WebAuthn credentials of an organization's users (deleted with the user: ON DELETE CASCADE). */
@Injectable()
export class PasskeyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Stores a verified registration for the user, in the user's organization: the passkey, or
   * `exists` when its credential id is already stored, or `no_user` when the user is gone or blocked.
   */
  async insert(manager: EntityManager, passkey: NewPasskey): Promise<PasskeySummary | 'exists' | 'no_user'> {
    const rows: Row[] = await manager.query(
      `INSERT INTO passkey (organization_id, user_id, credential_id, public_key, sign_count, device_type, backed_up, transports, name, created_at, rp_id)
       SELECT u.organization_id, u.id, $2, $3, $4, $5, $6, $7, $8, $9, $10 FROM "user" u WHERE u.id = $1 AND NOT u.blocked
       ON CONFLICT (credential_id) DO NOTHING
       RETURNING ${SUMMARY_COLUMNS}`,
      [
        passkey.userId,
        passkey.credentialId,
        passkey.publicKey,
        passkey.signCount,
        passkey.deviceType,
        passkey.backedUp,
        passkey.transports,
        passkey.name,
        passkey.createdAt,
        passkey.rpId,
      ],
    );
    if (rows[0]) return summary(rows[0]);
    const existing: unknown[] = await manager.query('SELECT 1 FROM passkey WHERE credential_id = $1', [passkey.credentialId]);
    return existing.length > 0 ? 'exists' : 'no_user';
  }

  /**
   * The passkey of this credential id in this organization, only while its user may sign in (not
   * blocked), locked for the sign-in's transaction: another organization's passkey, or a blocked
   * user's, is not found. The user's row is locked too: the sign-in completes as the user of this
   * e-mail (LoginCompletionService upserts by organization and address), so the address must stay
   * the passkey owner's until it commits (a rename waits; FOR UPDATE rather than FOR SHARE because
   * the completion then updates the row, and two sign-ins sharing the lock would deadlock upgrading it).
   * Only a passkey registered under `relyingParty.id`: a hosted page's passkey (rp_id NULL) only
   * where that is the hosted page's own RP ID (`relyingParty.hostedId`).
   */
  async lockForSignIn(
    manager: EntityManager,
    organizationId: string,
    credentialId: Buffer,
    relyingParty: { id: string; hostedId: string },
  ): Promise<PasskeyCredential | null> {
    const rows: Row[] = await manager.query(
      `SELECT p.id, p.organization_id, p.user_id, u.email, p.credential_id, p.public_key, p.sign_count, p.transports
         FROM passkey p JOIN "user" u ON u.id = p.user_id
        WHERE p.credential_id = $2 AND p.organization_id = $1 AND u.organization_id = $1 AND NOT u.blocked
          AND (p.rp_id = $3 OR (p.rp_id IS NULL AND $3 = $4))
          FOR UPDATE OF p, u`,
      [organizationId, credentialId, relyingParty.id, relyingParty.hostedId],
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

  /** After a verified assertion: the authenticator's counter and backup state as it reported them. */
  async recordUse(
    manager: EntityManager,
    id: string,
    use: { signCount: number; backedUp: boolean; deviceType: PasskeyDeviceType; at: Date },
  ) {
    await manager.query('UPDATE passkey SET sign_count = $2, backed_up = $3, device_type = $4, last_used_at = $5 WHERE id = $1', [
      id,
      use.signCount,
      use.backedUp,
      use.deviceType,
      use.at,
    ]);
  }

  /**
   * The passkey's user, organization and name, and the address it was registered from (the
   * `passkey.register` audit event written with it, at the same instant); null once it is gone.
   */
  async findRegisteredNotice(passkeyId: string): Promise<PasskeyRegisteredNotice | null> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT u.email, o.name AS organization, p.name, p.created_at,
              (SELECT a.ip FROM audit_event a
                WHERE a.tenant_id = o.tenant_id AND a.created_at = p.created_at
                  AND a.action = 'passkey.register' AND a.target_type = 'passkey' AND a.target_id = p.id
                LIMIT 1) AS ip
         FROM passkey p JOIN "user" u ON u.id = p.user_id JOIN organization o ON o.id = p.organization_id
        WHERE p.id = $1`,
      [passkeyId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      email: row.email as string,
      organization: row.organization as string,
      name: row.name as string,
      createdAt: row.created_at as Date,
      ip: (row.ip as string | null) ?? null,
    };
  }

  /** The user's passkeys, oldest first (a user has few). */
  async listForUser(organizationId: string, userId: string, manager: EntityManager = this.dataSource.manager): Promise<PasskeySummary[]> {
    const rows: Row[] = await manager.query(
      `SELECT ${SUMMARY_COLUMNS} FROM passkey WHERE organization_id = $1 AND user_id = $2 ORDER BY created_at, id`,
      [organizationId, userId],
    );
    return rows.map(summary);
  }

  /** The credential ids of the user's passkeys (a registration excludes them: one authenticator, one passkey). */
  async credentialIdsOfUser(
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ credentialId: Buffer; transports: string[] }[]> {
    const rows: Row[] = await manager.query('SELECT credential_id, transports FROM passkey WHERE user_id = $1', [userId]);
    return rows.map((row) => ({ credentialId: row.credential_id as Buffer, transports: row.transports as string[] }));
  }

  /** Removes one passkey of the user; the removed passkey, or null when there is none of that id. */
  async delete(manager: EntityManager, organizationId: string, userId: string, id: string): Promise<PasskeySummary | null> {
    const rows: Row[] = await manager.query(
      `WITH gone AS (DELETE FROM passkey WHERE organization_id = $1 AND user_id = $2 AND id = $3 RETURNING ${SUMMARY_COLUMNS})
       SELECT * FROM gone`,
      [organizationId, userId, id],
    );
    return rows[0] ? summary(rows[0]) : null;
  }
}
