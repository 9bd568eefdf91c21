import { Fault } from './under-load';
import { DrillStack } from './stack';

/** Every connection of the apps to Postgres terminated at once (a failover, a restarted pooler). */
export const postgresTerminate = (stack: DrillStack): Fault => ({
  dependencyDown: true,
  async inject(_apps, result) {
    const [{ terminated }] = await stack.sql<{ terminated: string }>(
      'SELECT count(pg_terminate_backend(pid)) AS terminated FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    if (Number(terminated) === 0) result.problems.push('no connection was terminated');
    return Date.now();
  },
});
