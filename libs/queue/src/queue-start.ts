import type { LoggerService } from '@nestjs/common';
import type { Queue } from 'bull';

/** What Bull does to start a queue taking jobs; both return promises their callers drop. */
const STARTS = ['process', 'setWorkerName'] as const;

type StartingQueue = Record<(typeof STARTS)[number], (...args: unknown[]) => Promise<unknown>> & { closing?: Promise<void> };

/**
 * Makes the start of a worker's queue end no process. Bull starts taking jobs in promises nobody
 * handles: @nestjs/bull drops the one `process()` returns, and `process()` drops the one of
 * `setWorkerName()`. Both first wait for a connection to be ready, and reject (with undefined, and
 * with a TypeError) when the queue is closed before it ever was: a worker stopped while Redis has
 * been away since it started. Node ends a process on an unhandled rejection, with status 1, in the
 * middle of its shutdown. Called before @nestjs/bull starts the queue (from a constructor). A start
 * cut short by the close is expected; any other failure (the queue then takes no job) is logged.
 */
export function handleQueueStart(queue: Queue, logger: LoggerService): void {
  const starting = queue as unknown as StartingQueue;
  for (const method of STARTS) {
    const start = starting[method].bind(queue);
    starting[method] = (...args) => {
      const started = start(...args);
      started.catch((error: unknown) => {
        if (!starting.closing) logger.error(`The ${queue.name} queue could not start taking jobs: ${describe(error)}`);
      });
      return started;
    };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
