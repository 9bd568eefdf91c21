import { EventEmitter } from 'node:events';
import { SesameConfig, ShutdownDrain } from '@sesame/common';
import type Redis from 'ioredis';
import { LoginAttemptEvents } from './login-attempt-events';

/** The subscriber connection: not ready until the test says so, then subscribes at once. */
class FakeSubscriber extends EventEmitter {
  status = 'connecting';
  subscribe = jest.fn(() => Promise.resolve());
  unsubscribe = jest.fn(() => Promise.resolve());
  quit = jest.fn(() => Promise.resolve());

  ready(): void {
    this.status = 'ready';
    this.emit('ready');
  }
}

const CONFIG = { redis: { prefix: 'test', commandTimeoutMs: 1000, failoverWaitMs: 0 } } as SesameConfig;

async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe('LoginAttemptEvents during the shutdown drain', () => {
  let subscriber: FakeSubscriber;
  let drain: ShutdownDrain;
  let events: LoginAttemptEvents;

  beforeEach(() => {
    // The 25 s wait never ends by its timer here: only a wake-up can end it.
    jest.useFakeTimers();
    subscriber = new FakeSubscriber();
    drain = new ShutdownDrain();
    events = new LoginAttemptEvents({ duplicate: () => subscriber } as unknown as Redis, CONFIG, drain);
  });

  afterEach(() => jest.useRealTimers());

  it('ends a held wait when the drain starts', async () => {
    subscriber.ready();
    const watch = await events.watch('attempt');
    const next = watch.next(25_000);
    expect(await settled(next)).toBe(false);
    drain.start();
    expect(await settled(next)).toBe(true);
  });

  it('does not hold a wait whose subscription was still being made when the drain started', async () => {
    const watching = events.watch('attempt');
    drain.start();
    subscriber.ready();
    const watch = await watching;
    expect(await settled(watch.next(25_000))).toBe(true);
  });

  it('does not hold a wait asked for during the drain', async () => {
    drain.start();
    const watch = await events.watch('attempt');
    expect(await settled(watch.next(25_000))).toBe(true);
    expect(subscriber.subscribe).not.toHaveBeenCalled();
  });
});
