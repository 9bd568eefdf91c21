import { setTimeout as sleep } from 'node:timers/promises';
import { Fault } from './under-load';
import { DrillStack } from './stack';

/** Terminations in a row, this far apart: the apps meet cut connections in every state (idle, mid-query, mid-transaction). */
const ROUNDS = 5;
const ROUND_GAP_MS = 250;

/** Every connection of the apps to Postgres terminated (a failover, a restarted pooler), several times in a row. */
export const postgresTerminate = (stack: DrillStack): Fault => ({
  dependencyDown: true,
  async inject(_apps, result) {
    let terminated = 0;
    for (let round = 0; round < ROUNDS; round++) {
      if (round) await sleep(ROUND_GAP_MS);
      const [row] = await stack.sql<{ count: string }>(
        'SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      terminated += Number(row.count);
    }
    if (terminated === 0) result.problems.push('no connection was terminated');
    return Date.now();
  },
});
