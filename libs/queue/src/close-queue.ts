import { BULL_RECONNECT_CAP_MS, reachStatus, withTimeout } from '@sesame/common';
import type { Queue } from 'bull';
import type Redis from 'ioredis';

/** How long a worker's shutdown waits for its queue's connections to be back (they try at least every BULL_RECONNECT_CAP_MS). */
export const QUEUE_RECONNECT_WAIT_MS = 2 * BULL_RECONNECT_CAP_MS;

/**
 * Closes a queue a worker takes jobs from: no new job, the jobs under way finish, then its
 * connections end. Bull's close does that with Redis there, but to stop its wait for jobs it ends
 * the blocking connection and connects it again at once; a connection still being made (Redis
 * away, or only just back) refuses that connect, and Bull leaves the refusal unhandled, which ends
 * the process with code 1 in the middle of its shutdown. So the close first waits a moment for
 * the connections to be back. If they are not, Redis is away and a job under way could not record
 * its end anyway: the queue closes without waiting for it (another worker takes the job over once
 * its lock expires).
 */
export async function closeQueue(queue: Queue): Promise<void> {
  const connected = await allReady(queue.clients, QUEUE_RECONNECT_WAIT_MS);
  await queue.close(!connected);
}

async function allReady(connections: Redis[], waitMs: number): Promise<boolean> {
  const pending = connections.filter((connection) => connection.status !== 'ready');
  const controller = new AbortController();
  try {
    await withTimeout(Promise.all(pending.map((connection) => reachStatus(connection, 'ready', controller.signal))), waitMs);
    return true;
  } catch {
    return false;
  } finally {
    controller.abort();
  }
}
