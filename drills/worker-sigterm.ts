import { Fault } from './under-load';
import { DrillStack } from './stack';

/** mail-worker stopped with SIGTERM mid-queue (a deployment): it must finish its send and exit 0; a new one is started. */
export const workerSigterm = (stack: DrillStack): Fault => ({
  dependencyDown: false,
  async inject(apps, result) {
    await apps.worker.stop();
    const { exitCode, signalCode } = apps.worker.process.process;
    if (exitCode !== 0) result.problems.push(`the worker exited with ${exitCode ?? signalCode} on SIGTERM`);
    apps.worker = await stack.startApp('mail-worker', apps.prefix);
    return Date.now();
  },
});
