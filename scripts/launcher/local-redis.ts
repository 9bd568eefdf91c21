import { accessSync, constants, mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ProcessSupervisor } from './process-supervisor';
import { tcpOpen, waitUntil } from './wait';

export interface LocalRedisOptions {
  /** Where the append-only file lives; reused by the next start. */
  dataDir: string;
  port: number;
}

/** The one line said when there is no Redis to use and none to start. */
export const REDIS_INSTALL_HINT =
  'Redis is not running and redis-server is not installed: install it (`apt-get install redis-server` or `brew install redis`), or set REDIS_URL.';

/** The redis-server executable on the PATH, or null. */
export function findRedisServer(path = process.env.PATH ?? ''): string | null {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'redis-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return null;
}

/**
 * Starts redis-server under the supervisor, on loopback only, with append-only persistence in
 * dataDir (so queued e-mails and limits survive a restart, as in production), and resolves once it
 * accepts connections.
 */
export async function startLocalRedis(supervisor: ProcessSupervisor, executable: string, options: LocalRedisOptions): Promise<void> {
  mkdirSync(options.dataDir, { recursive: true });
  const server = supervisor.start({
    name: 'redis',
    command: executable,
    args: [
      '--bind',
      '127.0.0.1',
      '--port',
      String(options.port),
      '--dir',
      options.dataDir,
      '--appendonly',
      'yes',
      '--save',
      '',
      '--daemonize',
      'no',
    ],
  });
  await waitUntil(() => tcpOpen('127.0.0.1', options.port), {
    description: `the local Redis on port ${options.port}`,
    timeoutMs: 30_000,
    intervalMs: 200,
    process: server,
  });
}
