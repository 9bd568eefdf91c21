import { setTimeout as sleep } from 'node:timers/promises';
import { Fault } from './under-load';
import { DrillStack } from './stack';

/** How long Redis stays down in each Redis drill. */
const DOWN_MS = 3000;

/** Redis shut down (SIGTERM: it writes its append-only file) and started again after DOWN_MS. */
export const redisRestart = (stack: DrillStack): Fault => ({
  dependencyDown: true,
  async inject() {
    await stack.redis.stop();
    await sleep(DOWN_MS);
    await stack.redis.restart();
    return Date.now();
  },
});

/** Redis killed with -9 (what the append-only file has is what survives) and started again after DOWN_MS. */
export const redisKill = (stack: DrillStack): Fault => ({
  dependencyDown: true,
  async inject() {
    await stack.redis.kill();
    await sleep(DOWN_MS);
    await stack.redis.restart();
    return Date.now();
  },
});

/**
 * Redis loses its data (killed, its disk wiped, started empty) while the queue holds e-mails: the
 * SMTP server refuses every delivery beforehand (451, try later), so that every e-mail accepted
 * until then waits in Redis for its retry, and only the mail sweeper (from login_attempt rows,
 * after its 30 s grace) can send them. Nothing else stops: the worker runs throughout.
 */
export const redisDataLoss = (stack: DrillStack): Fault => ({
  dependencyDown: true,
  async prepare() {
    stack.smtp.refuseNext(Number.MAX_SAFE_INTEGER);
  },
  async inject() {
    await stack.redis.kill();
    stack.redis.wipe();
    stack.smtp.refuseNext(0);
    await stack.redis.restart();
    return Date.now();
  },
  async cleanup() {
    stack.smtp.refuseNext(0);
  },
});
