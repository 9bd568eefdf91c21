import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Asks `check` once a second until it holds, or fails after `timeoutMs`: for what the stack cannot
 * announce (a mail caught, a pod answering through the gateway).
 */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(1000);
  }
}
