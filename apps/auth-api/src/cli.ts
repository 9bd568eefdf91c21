import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  ClientSecretVerifier,
  ClockModule,
  ConfigurationError,
  loadConfig,
  parseEnvironment,
  SecretBox,
  SesameConfig,
  SesameConfigModule,
} from '@sesame/common';
import { DatabaseModule, linkTokenAssociatedData } from '@sesame/entities';
import { DataSource, EntityManager } from 'typeorm';
import { SigningKeysModule } from './tokens/signing-keys.module';
import { SigningKeysService } from './tokens/signing-keys.service';

const USAGE = `Usage: npm run cli:auth -- <command>

Commands:
  signing-key:rotate   create a new id_token signing key and retire the current one
                       (it stays published in the JWKS until the id_tokens it signed expire;
                       every auth-api instance picks the new key up within a minute)
  secrets:reencrypt    re-encrypt everything sealed with OLD_SECRETS_KEY (client secrets,
                       signing keys, pending login-link tokens) with SECRETS_KEY and compute
                       the client secrets' verifiers with the new key, in one transaction;
                       values already under SECRETS_KEY are left as they are`;

async function main([command]: string[]): Promise<number> {
  if (command === 'secrets:reencrypt') return reencryptCommand();
  if (command !== 'signing-key:rotate') {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  @Module({ imports: [SesameConfigModule.forRoot(config), ClockModule, DatabaseModule, SigningKeysModule] })
  class CliModule {}
  const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
  try {
    const kid = await app.get(SigningKeysService).rotate();
    console.log(`New signing key ${kid}; the previous key is retired and stays in the JWKS until its tokens expire.`);
    return 0;
  } finally {
    await app.close();
  }
}

/** Every column sealed with SECRETS_KEY, and the associated data each value was sealed with. */
const SEALED_COLUMNS: { table: string; column: string; key: string; associatedData: string; encode?: (value: Buffer) => string }[] = [
  { table: 'application', column: 'client_secret_encrypted', key: 'id', associatedData: 'client_id' },
  { table: 'application', column: 'previous_client_secret_encrypted', key: 'id', associatedData: 'client_id' },
  { table: 'signing_key', column: 'private_key_encrypted', key: 'kid', associatedData: 'kid' },
  { table: 'login_attempt', column: 'link_token_encrypted', key: 'id', associatedData: 'token_hash', encode: linkTokenAssociatedData },
];

interface ReencryptionReport {
  /** Per table: values moved to the new key, and values that already were under it. */
  [table: string]: { reencrypted: number; alreadyCurrent: number };
}

/**
 * Re-encrypts every sealed value from `oldKey` to `newKey` in one transaction (rows locked), so a
 * failure changes nothing. A value that opens with neither key stops it: the transaction is rolled back.
 */
async function reencryptSecrets(dataSource: DataSource, oldKey: Buffer, newKey: Buffer): Promise<ReencryptionReport> {
  const previous = new SecretBox(oldKey);
  const current = new SecretBox(newKey);
  return dataSource.transaction(async (manager) => {
    const report: ReencryptionReport = {};
    for (const { table, column, key, associatedData, encode } of SEALED_COLUMNS) {
      const rows: { key: string; sealed: string; aad: string | Buffer }[] = await manager.query(
        `SELECT ${key}::text AS key, ${column} AS sealed, ${associatedData} AS aad FROM ${table} WHERE ${column} IS NOT NULL ORDER BY ${key} FOR UPDATE`,
      );
      const counts = { reencrypted: 0, alreadyCurrent: 0 };
      for (const row of rows) {
        const aad = encode && Buffer.isBuffer(row.aad) ? encode(row.aad) : String(row.aad);
        let plaintext: string;
        try {
          plaintext = previous.decrypt(row.sealed, aad);
        } catch {
          if (opens(current, row.sealed, aad)) {
            counts.alreadyCurrent += 1;
            continue;
          }
          throw new Error(`${table}.${column} of ${row.key} opens with neither OLD_SECRETS_KEY nor SECRETS_KEY; nothing was changed`);
        }
        await manager.query(`UPDATE ${table} SET ${column} = $2 WHERE ${key}::text = $1`, [row.key, current.encrypt(plaintext, aad)]);
        counts.reencrypted += 1;
      }
      const earlier = report[table];
      report[table] = earlier
        ? { reencrypted: earlier.reencrypted + counts.reencrypted, alreadyCurrent: earlier.alreadyCurrent + counts.alreadyCurrent }
        : counts;
    }
    await recomputeClientSecretVerifiers(manager, current, new ClientSecretVerifier(newKey));
    return report;
  });
}

/** Client secret verifiers are keyed from SECRETS_KEY: after a rotation every one is computed again from its (re-sealed) secret. */
async function recomputeClientSecretVerifiers(manager: EntityManager, box: SecretBox, verifiers: ClientSecretVerifier): Promise<void> {
  const rows: { id: string; client_id: string; current: string | null; previous: string | null }[] = await manager.query(
    `SELECT id, client_id, client_secret_encrypted AS current, previous_client_secret_encrypted AS previous FROM application
      WHERE client_secret_encrypted IS NOT NULL OR previous_client_secret_encrypted IS NOT NULL`,
  );
  const verifierOf = (sealed: string | null, clientId: string) => (sealed === null ? null : verifiers.of(box.decrypt(sealed, clientId)));
  for (const row of rows) {
    await manager.query(
      'UPDATE application SET client_secret_verifier = $2, previous_client_secret_verifier = $3, client_secret_hash = NULL WHERE id = $1',
      [row.id, verifierOf(row.current, row.client_id), verifierOf(row.previous, row.client_id)],
    );
  }
}

function opens(box: SecretBox, sealed: string, aad: string): boolean {
  try {
    box.decrypt(sealed, aad);
    return true;
  } catch {
    return false;
  }
}

/** OLD_SECRETS_KEY, checked like SECRETS_KEY. */
function oldSecretsKey(config: SesameConfig): Buffer {
  const value = process.env.OLD_SECRETS_KEY;
  if (!value?.trim()) throw new Error('OLD_SECRETS_KEY must be set to the key the data is encrypted with now (SECRETS_KEY is the new one)');
  try {
    // The same format rules as SECRETS_KEY.
    return parseEnvironment({ DATABASE_URL: config.database.url, SECRETS_KEY: value }).secrets.key;
  } catch (error) {
    if (error instanceof ConfigurationError)
      throw new Error('OLD_SECRETS_KEY must be 32 bytes, as 64 hex characters or base64', { cause: error });
    throw error;
  }
}

async function reencryptCommand(): Promise<number> {
  const config = loadConfig();
  const oldKey = oldSecretsKey(config);
  if (oldKey.equals(config.secrets.key)) throw new Error('OLD_SECRETS_KEY and SECRETS_KEY are the same key');
  @Module({ imports: [SesameConfigModule.forRoot(config), ClockModule, DatabaseModule] })
  class CliModule {}
  const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
  try {
    const report = await reencryptSecrets(app.get(DataSource), oldKey, config.secrets.key);
    for (const [table, counts] of Object.entries(report)) {
      console.log(`${table}: ${counts.reencrypted} re-encrypted, ${counts.alreadyCurrent} already under SECRETS_KEY`);
    }
    console.log('Done. Restart every app with the new SECRETS_KEY; OLD_SECRETS_KEY is no longer needed.');
    return 0;
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
