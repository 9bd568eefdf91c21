import { Client } from 'pg';
import { runMigrations } from '@sesame/entities';
import { ADMIN_DATABASE_URL, databaseUrlFor, runId } from './test-env';

/**
 * A database of one test file, migrated like the run's: for tests that act on whole tables (the
 * maintenance job), which must neither see nor delete other files' rows.
 */
export class ThrowawayDatabase {
  private constructor(
    readonly name: string,
    readonly url: string,
  ) {}

  static async create(): Promise<ThrowawayDatabase> {
    const name = `sesame_test_${runId()}`;
    await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
    const database = new ThrowawayDatabase(name, databaseUrlFor(name));
    await runMigrations(database.url);
    return database;
  }

  /** Runs SQL on this database and returns the rows. */
  async query<T = Record<string, unknown>>(sql: string, parameters: unknown[] = []): Promise<T[]> {
    const client = new Client({ connectionString: this.url });
    await client.connect();
    try {
      return (await client.query(sql, parameters)).rows as T[];
    } finally {
      await client.end();
    }
  }

  async drop(): Promise<void> {
    if (process.env.KEEP_TEST_DATABASE) return;
    await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${this.name}" WITH (FORCE)`));
  }
}

async function withAdmin(work: (admin: Client) => Promise<unknown>): Promise<void> {
  const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}
