import type { LoggerService } from '@nestjs/common';
import type { Queue } from 'bull';
import { handleQueueStart } from './queue-start';

/** A queue whose start waits until the test settles it, as Bull's waits for Redis. */
function fakeQueue() {
  const starts: { reject(reason?: unknown): void }[] = [];
  const begin = (..._args: unknown[]) => new Promise((_, reject) => starts.push({ reject }));
  const queue = { name: 'mail', closing: undefined as Promise<void> | undefined, process: begin, setWorkerName: begin };
  return { queue, starts };
}

function unhandledRejections(): { seen: unknown[]; stop(): void } {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  return { seen, stop: () => process.off('unhandledRejection', listener) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('handleQueueStart', () => {
  const logger = { error: jest.fn(), log: jest.fn(), warn: jest.fn() } satisfies LoggerService;
  const exit = jest.fn();
  beforeEach(() => jest.clearAllMocks());

  it('a start cut short by the close rejects unhandled nowhere and logs nothing', async () => {
    const { queue, starts } = fakeQueue();
    handleQueueStart(queue as unknown as Queue, logger, exit);
    const rejections = unhandledRejections();
    // As @nestjs/bull and Bull call them: their promises dropped.
    void queue.process('login-link', 4, () => undefined);
    void queue.setWorkerName();
    queue.closing = Promise.resolve();
    starts.forEach((start) => start.reject(undefined));
    await settle();
    rejections.stop();
    expect(rejections.seen).toEqual([]);
    expect(logger.error).not.toHaveBeenCalled();
    expect(exit).not.toHaveBeenCalled();
  });

  it('a start that fails while the queue is open (it would take no job, for good) is logged and ends the process with status 1', async () => {
    const { queue, starts } = fakeQueue();
    handleQueueStart(queue as unknown as Queue, logger, exit);
    void queue.process('login-link', 4, () => undefined);
    starts[0].reject(new Error('NOSCRIPT No matching script'));
    await settle();
    expect(logger.error).toHaveBeenCalledWith(
      'The mail queue could not start taking jobs; stopping, to be started again: NOSCRIPT No matching script',
    );
    expect(exit).toHaveBeenCalledWith(1);
  });

  it("hands the caller Bull's own promise", async () => {
    const { queue, starts } = fakeQueue();
    handleQueueStart(queue as unknown as Queue, logger, exit);
    const started = queue.process('login-link', 4, () => undefined);
    starts[0].reject(new Error('refused'));
    await expect(started).rejects.toThrow('refused');
  });
});
