import { EventEmitter } from 'node:events';
import type Redis from 'ioredis';
import { reachStatus } from './connection-status';

/** A connection as ioredis reports it: a status, and an event of each status it enters. */
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

const asRedis = (connection: FakeConnection) => connection as unknown as Redis;

describe('reachStatus', () => {
  it('resolves at once for a connection in that status', async () => {
    await expect(reachStatus(asRedis(new FakeConnection('ready')), 'ready')).resolves.toBeUndefined();
  });

  it('waits through failed reconnects (their errors) until the status comes', async () => {
    const connection = new FakeConnection('reconnecting');
    let reached = false;
    const waiting = reachStatus(asRedis(connection), 'ready').then(() => (reached = true));
    connection.emit('error', new Error('connect ECONNREFUSED'));
    connection.become('connecting');
    await new Promise((resolve) => setImmediate(resolve));
    expect(reached).toBe(false);
    connection.become('ready');
    await waiting;
    expect(reached).toBe(true);
  });

  it('an abort ends the wait and leaves no listener behind', async () => {
    const connection = new FakeConnection('reconnecting');
    const controller = new AbortController();
    const waiting = reachStatus(asRedis(connection), 'ready', controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow();
    expect(connection.listenerCount('ready')).toBe(0);
  });
});
