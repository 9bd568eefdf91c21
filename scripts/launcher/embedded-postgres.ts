import { join } from 'node:path';
import { ProcessSupervisor } from './process-supervisor';
import { postgresAccepts, waitUntil } from './wait';

export interface EmbeddedPostgresOptions {
  /** Data directory; initialised on the first start, reused after. */
  dataDir: string;
  port: number;
  password: string;
  database: string;
}

/** Known before the cluster runs, so the configuration can be checked before anything starts. */
export function embeddedPostgresUrl(options: Pick<EmbeddedPostgresOptions, 'port' | 'password' | 'database'>): string {
  return `postgres://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}/${options.database}`;
}

/**
 * Starts the embedded cluster (see embedded-postgres-server.ts) under the supervisor and resolves with
 * its connection URL once the database answers queries. The first start runs initdb, which takes a few
 * seconds; later starts reuse the data directory.
 */
export async function startEmbeddedPostgres(supervisor: ProcessSupervisor, options: EmbeddedPostgresOptions): Promise<string> {
  const server = supervisor.start({
    name: 'postgres',
    command: process.execPath,
    args: [join(__dirname, 'embedded-postgres-server.js')],
    env: {
      ...process.env,
      EMBEDDED_POSTGRES_DIR: options.dataDir,
      EMBEDDED_POSTGRES_PORT: String(options.port),
      EMBEDDED_POSTGRES_PASSWORD: options.password,
      EMBEDDED_POSTGRES_DATABASE: options.database,
    },
  });
  const url = embeddedPostgresUrl(options);
  await waitUntil(() => postgresAccepts(url), {
    description: `the embedded Postgres on port ${options.port}`,
    timeoutMs: 120_000,
    intervalMs: 500,
    process: server,
  });
  return url;
}
