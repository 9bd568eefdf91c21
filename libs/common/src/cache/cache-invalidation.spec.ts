import { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import { CacheInvalidation, CacheInvalidationBus, cacheInvalidationChannel, parseCacheInvalidation } from './cache-invalidation';

const CHANNEL = cacheInvalidationChannel('sesame');
const APPLICATION: CacheInvalidation = { kind: 'application', applicationId: '7c1f4a52-0b7e-4c4e-9a43-1d2f3e4a5b6c' };

/** A subscriber connection that connects and subscribes when told to. */
class FakeSubscriber extends EventEmitter {
  subscribed: string[] = [];
  connect = jest.fn(async () => void this.emit('ready'));
  subscribe = jest.fn(async (channel: string) => void this.subscribed.push(channel));
  quit = jest.fn(async () => 'OK');
}

function busWith(publisher: { publish?: jest.Mock }, subscriber = new FakeSubscriber()) {
  const redis = { publish: publisher.publish ?? jest.fn(async () => 1), duplicate: () => subscriber };
  return { bus: new CacheInvalidationBus(redis as never, { redis: { prefix: 'sesame' } } as never), subscriber, redis };
}

describe('CacheInvalidationBus', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => (warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined)));
  afterEach(() => warn.mockRestore());

  it('publishes ids only, on the channel under REDIS_PREFIX', async () => {
    const { bus, redis } = busWith({});
    await bus.publish(APPLICATION);
    expect(redis.publish).toHaveBeenCalledWith('sesame:cache-invalidation', JSON.stringify(APPLICATION));
  });

  it('a failed publish is a warning, never the caller’s error', async () => {
    const { bus } = busWith({ publish: jest.fn(async () => Promise.reject(new Error('Connection is closed.'))) });
    await expect(bus.publish({ kind: 'tenant', tenantId: 't1' })).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Connection is closed.'));
  });

  it('subscribes before the app takes requests and hands each message to every handler in order', async () => {
    const { bus, subscriber } = busWith({});
    const seen: string[] = [];
    bus.subscribe((message) => seen.push(`first ${message.kind}`));
    bus.subscribe((message) => seen.push(`second ${message.kind}`));
    await bus.onApplicationBootstrap();
    expect(subscriber.subscribed).toEqual([CHANNEL]);
    subscriber.emit('message', CHANNEL, JSON.stringify(APPLICATION));
    expect(seen).toEqual(['first application', 'second application']);
  });

  it('subscribes again after every reconnection', async () => {
    const { bus, subscriber } = busWith({});
    bus.subscribe(() => undefined);
    await bus.onApplicationBootstrap();
    subscriber.emit('ready');
    expect(subscriber.subscribed).toEqual([CHANNEL, CHANNEL]);
  });

  it('starts while Redis is away, with a warning', async () => {
    const subscriber = new FakeSubscriber();
    subscriber.connect.mockRejectedValueOnce(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    const { bus } = busWith({}, subscriber);
    bus.subscribe(() => undefined);
    await expect(bus.onApplicationBootstrap()).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('ECONNREFUSED'));
  });

  it('opens no connection when nothing subscribed', async () => {
    const { bus, subscriber } = busWith({});
    await bus.onApplicationBootstrap();
    expect(subscriber.connect).not.toHaveBeenCalled();
  });

  it('ignores malformed messages and other channels', async () => {
    const { bus, subscriber } = busWith({});
    const handler = jest.fn();
    bus.subscribe(handler);
    await bus.onApplicationBootstrap();
    subscriber.emit('message', CHANNEL, '{not json');
    subscriber.emit('message', 'other:cache-invalidation', JSON.stringify(APPLICATION));
    expect(handler).not.toHaveBeenCalled();
  });
});

describe('parseCacheInvalidation', () => {
  it('keeps the kind and its id, and nothing else', () => {
    expect(parseCacheInvalidation(JSON.stringify({ ...APPLICATION, extra: 'x' }))).toEqual(APPLICATION);
    expect(parseCacheInvalidation('{"kind":"member","memberId":"m1"}')).toEqual({ kind: 'member', memberId: 'm1' });
  });

  it.each([
    ['null'],
    ['"application"'],
    ['{"kind":"application"}'],
    ['{"kind":"application","tenantId":"t1"}'],
    ['{"kind":"toString","toString":"x"}'],
    ['{"kind":"tenant","tenantId":""}'],
    [`{"kind":"tenant","tenantId":"${'x'.repeat(65)}"}`],
  ])('refuses %s', (raw) => expect(parseCacheInvalidation(raw)).toBeNull());
});
