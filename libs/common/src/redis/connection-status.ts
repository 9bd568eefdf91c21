import type Redis from 'ioredis';

/**
 * Resolves when `connection` is in `status`, at once if it is now. Unlike `events.once`, an
 * 'error' on the way does not end the wait: a reconnecting connection reports each try that fails
 * before the one that succeeds. Aborting `signal` ends the wait with a rejection.
 */
export function reachStatus(connection: Redis, status: Redis['status'], signal?: AbortSignal): Promise<void> {
  if (connection.status === status) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const reached = () => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const aborted = () => {
      connection.off(status, reached);
      reject(signal!.reason);
    };
    connection.once(status, reached);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
