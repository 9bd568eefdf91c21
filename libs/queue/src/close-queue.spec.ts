import { EventEmitter } from 'node:events';
import type { Queue } from 'bull';
import { closeQueue, QUEUE_RECONNECT_WAIT_MS } from './close-queue';

class FakeConnection extends EventEmitter {
  constructor(public status: string) {
    super();
    this.on('error', () => undefined); // Bull listens to its connections' errors
  }

  become(status: string): void {
    this.status = status;
    this.emit(status);
  }
}

function fakeQueue(...statuses: string[]) {
  const clients = statuses.map((status) => new FakeConnection(status));
  const close = jest.fn().mockResolvedValue(undefined);
  return { clients, close, queue: { clients, close } as unknown as Queue };
}

describe('closeQueue', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('connected: closes as Bull does, waiting for the jobs under way', async () => {
    const { queue, close } = fakeQueue('ready', 'ready', 'ready');
    await closeQueue(queue);
    expect(close).toHaveBeenCalledWith(false);
  });

  it('reconnecting: waits for the connections to be back, then waits for the jobs under way', async () => {
    const { queue, close, clients } = fakeQueue('ready', 'connecting', 'reconnecting');
    const closing = closeQueue(queue);
    await jest.advanceTimersByTimeAsync(QUEUE_RECONNECT_WAIT_MS - 1);
    expect(close).not.toHaveBeenCalled();
    clients[1].become('ready');
    clients[2].become('ready');
    await closing;
    expect(close).toHaveBeenCalledWith(false);
  });

  it('Redis only just back: a reconnect refused on the way does not cut the wait short', async () => {
    const { queue, close, clients } = fakeQueue('ready', 'reconnecting');
    const closing = closeQueue(queue);
    clients[1].emit('error', new Error('connect ECONNREFUSED'));
    await jest.advanceTimersByTimeAsync(QUEUE_RECONNECT_WAIT_MS / 2);
    clients[1].become('ready');
    await closing;
    expect(close).toHaveBeenCalledWith(false);
  });

  it('Redis away: closes without waiting for the jobs under way (they could not record their end)', async () => {
    const { queue, close, clients } = fakeQueue('ready', 'connecting', 'ready');
    const closing = closeQueue(queue);
    await jest.advanceTimersByTimeAsync(QUEUE_RECONNECT_WAIT_MS);
    await closing;
    expect(close).toHaveBeenCalledWith(true);
    expect(clients[1].listenerCount('ready')).toBe(0);
  });
});
