import type { LoggerService } from '@nestjs/common';
import type { Queue } from 'bull';

/** What Bull does to start a queue taking jobs; both return promises their callers drop. */
const STARTS = ['process', 'setWorkerName'] as const;

type StartingQueue = Record<(typeof STARTS)[number], (...args: unknown[]) => Promise<unknown>> & { closing?: Promise<void> };

/**
 * Makes the start of a worker's queue end the process only on purpose. Bull starts taking jobs in
 * promises nobody handles: @nestjs/bull drops the one `process()` returns, and `process()` drops
 * the one of `setWorkerName()`. Both first wait for a connection to be ready, and reject (with
 * undefined, and with a TypeError) when the queue is closed before it ever was: a worker stopped
 * while Redis has been away since it started. Unhandled, that ended the process with status 1 in
 * the middle of its shutdown; now it is expected and ignored. Any other start failure (Redis away
 * longer than a command waits, at start) leaves the queue taking no job for good, as Bull never
 * starts it again, while the worker looks healthy: that is logged and the process ends with status
 * 1, for its supervisor to start it again. Called before @nestjs/bull starts the queue (from a
 * provider's factory: all are made before any module's init).
 */
export function handleQueueStart(queue: Queue, logger: LoggerService, exit: (code: number) => void = (code) => process.exit(code)): void {
  const starting = queue as unknown as StartingQueue;
  for (const method of STARTS) {
    const start = starting[method].bind(queue);
    starting[method] = (...args) => {
      const started = start(...args);
      started.catch((error: unknown) => {
        if (starting.closing) return;
        logger.error(`The ${queue.name} queue could not start taking jobs; stopping, to be started again: ${describe(error)}`);
        exit(1);
      });
      return started;
    };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
