import { once } from 'node:events';
import { Fault } from './under-load';
import { DrillStack } from './stack';

/** mail-worker killed with -9 mid-queue; a new one started (as an orchestrator would). */
export const workerKill = (stack: DrillStack): Fault => ({
  dependencyDown: false,
  async inject(apps) {
    const child = apps.worker.process.process;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    apps.worker = await stack.startApp('mail-worker', apps.prefix);
    return Date.now();
  },
});
