import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { JsonWebKey } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';

export interface NewSigningKey {
  kid: string;
  algorithm: string;
  privateKeyEncrypted: string;
  publicJwk: JsonWebKey;
  createdAt: Date;
}

/** Only one instance generates the first key; the others wait on this advisory lock. */
const GENERATION_LOCK = 0x5e5a3e;

/** signing_key: the id_token signing keys, their private halves sealed. */
@Injectable()
export class SigningKeyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The public keys of keys not retired, or retired after `retiredAfter`, newest first. */
  async publicKeys(retiredAfter: Date): Promise<JsonWebKey[]> {
    const rows: { public_jwk: JsonWebKey }[] = await this.dataSource.query(
      'SELECT kid, public_jwk FROM signing_key WHERE retired_at IS NULL OR retired_at > $1 ORDER BY created_at DESC',
      [retiredAfter],
    );
    return rows.map((row) => row.public_jwk);
  }

  /**
   * The newest key created by `createdBy`, among those not retired at `now`; when every such key
   * is younger, the oldest of them. Null when there is none.
   */
  async findSigning(now: Date, createdBy: Date): Promise<{ kid: string; privateKeyEncrypted: string } | null> {
    const rows: { kid: string; private_key_encrypted: string }[] = await this.dataSource.query(
      `SELECT kid, private_key_encrypted FROM signing_key
        WHERE retired_at IS NULL OR retired_at > $1
        ORDER BY created_at <= $2 DESC, CASE WHEN created_at <= $2 THEN created_at END DESC, created_at ASC
        LIMIT 1`,
      [now, createdBy],
    );
    return rows[0] ? { kid: rows[0].kid, privateKeyEncrypted: rows[0].private_key_encrypted } : null;
  }

  /** Retires every key not retired yet, at `at`, in the caller's transaction. */
  async retireAll(manager: EntityManager, at: Date): Promise<void> {
    await manager.query('UPDATE signing_key SET retired_at = $1 WHERE retired_at IS NULL', [at]);
  }

  async insert(manager: EntityManager, key: NewSigningKey): Promise<void> {
    await manager.query(
      'INSERT INTO signing_key (kid, algorithm, private_key_encrypted, public_jwk, created_at) VALUES ($1, $2, $3, $4, $5)',
      [key.kid, key.algorithm, key.privateKeyEncrypted, key.publicJwk, key.createdAt],
    );
  }

  /**
   * Whether a key not retired exists, after taking the first-key generation lock for the caller's
   * transaction: instances starting together generate one first key, not one each.
   */
  async lockGenerationAndHasLiveKey(manager: EntityManager): Promise<boolean> {
    await manager.query('SELECT pg_advisory_xact_lock($1)', [GENERATION_LOCK]);
    const existing: { kid: string }[] = await manager.query('SELECT kid FROM signing_key WHERE retired_at IS NULL LIMIT 1');
    return existing.length > 0;
  }
}
