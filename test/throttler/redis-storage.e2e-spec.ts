import { ManualClock, redisOptions } from '@sesame/common';
import { RedisThrottlerStorage, WindowSpec } from '@sesame/throttler';
import Redis from 'ioredis';
import { testConfig } from '../support/config';
import { ownRedisPrefix } from './support';

describe('RedisThrottlerStorage (the Lua script against real Redis)', () => {
  const config = testConfig({ REDIS_PREFIX: ownRedisPrefix() });
  const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
  const clients: Redis[] = [];
  const storage = () => {
    const client = new Redis(redisOptions(config));
    clients.push(client);
    return new RedisThrottlerStorage(client, config, clock);
  };
  let store: RedisThrottlerStorage;
  let redis: Redis;

  beforeAll(async () => {
    store = storage();
    await store.onModuleInit();
    redis = clients[0];
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.quit()));
  });

  const windows: WindowSpec[] = [
    { name: 'minute', limit: 3, lengthMs: 60_000 },
    { name: 'hour', limit: 5, lengthMs: 3_600_000 },
  ];

  it('keys buckets under REDIS_PREFIX with a hash tag, expires them after the longest window, and never stores refused requests', async () => {
    const now = clock.now().getTime();
    for (let i = 0; i < 3; i++) expect((await store.hit('{tenant:a}:plan', windows, now)).allowed).toBe(true);
    for (let i = 0; i < 10; i++) expect((await store.hit('{tenant:a}:plan', windows, now + i)).allowed).toBe(false);
    const key = `${config.redis.prefix}:throttle:{tenant:a}:plan`;
    expect(store.keyOf('{tenant:a}:plan')).toBe(key);
    expect(await redis.zcard(key)).toBe(3);
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(3_590_000);
    expect(ttl).toBeLessThanOrEqual(3_600_000);
  });

  it('hits several buckets in order in one call: each counted while it has room, none after the first that refuses', async () => {
    const now = clock.now().getTime();
    const perAddress: WindowSpec[] = [{ name: 'minute', limit: 4, lengthMs: 60_000 }];
    const checks = [
      { bucket: '{ip:e}:global', windows: perAddress },
      { bucket: '{tenant:e}:plan', windows },
    ];
    for (let i = 0; i < 3; i++) expect((await store.hitAll(checks, now + i)).map((result) => result.allowed)).toEqual([true, true]);
    // The plan is used up: the address is counted, the refusal is the plan's.
    const byPlan = await store.hitAll(checks, now + 3);
    expect(byPlan.map((result) => result.allowed)).toEqual([true, false]);
    expect(byPlan[1].windows[0]).toMatchObject({ used: 3, remaining: 0, resetMs: 59_997 });
    // The address is used up: the plan is not looked at.
    const byAddress = await store.hitAll(checks, now + 4);
    expect(byAddress).toHaveLength(1);
    expect(byAddress[0]).toMatchObject({ allowed: false, windows: [{ used: 4, remaining: 0 }] });
    expect(await redis.zcard(store.keyOf('{ip:e}:global'))).toBe(4);
    expect(await redis.zcard(store.keyOf('{tenant:e}:plan'))).toBe(3);
  });

  it('reads without counting', async () => {
    const now = clock.now().getTime();
    await store.hit('{tenant:b}:plan', windows, now - 70_000);
    await store.hit('{tenant:b}:plan', windows, now - 1_000);
    const peeked = await store.peek('{tenant:b}:plan', windows, now);
    expect(peeked.windows.map(({ used, remaining, resetMs }) => ({ used, remaining, resetMs }))).toEqual([
      { used: 1, remaining: 2, resetMs: 59_000 },
      { used: 2, remaining: 3, resetMs: 3_530_000 },
    ]);
    expect((await store.peek('{tenant:b}:plan', windows, now)).windows[1].used).toBe(2);
    expect((await store.peek('{tenant:none}:plan', windows, now)).windows[0]).toEqual({ ...windows[0], used: 0, remaining: 3, resetMs: 0 });
  });

  it('counts exactly under concurrency from many clients', async () => {
    const stores = Array.from({ length: 8 }, storage);
    await Promise.all(stores.map((s) => s.onModuleInit()));
    const spec: WindowSpec[] = [{ name: 'minute', limit: 37, lengthMs: 60_000 }];
    const now = clock.now().getTime();
    const results = await Promise.all(
      Array.from({ length: 400 }, (_, i) => stores[i % stores.length].hit('{tenant:c}:plan', spec, now + (i % 7))),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(37);
  });

  it('serves @nestjs/throttler’s ThrottlerStorage.increment with the same rolling window', async () => {
    const first = await store.increment('k', 10_000, 2, 0, 'default');
    expect(first).toEqual({ totalHits: 1, timeToExpire: 10, isBlocked: false, timeToBlockExpire: 0 });
    clock.advance(4);
    expect(await store.increment('k', 10_000, 2, 0, 'default')).toEqual({
      totalHits: 2,
      timeToExpire: 6,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect(await store.increment('k', 10_000, 2, 0, 'default')).toEqual({
      totalHits: 3,
      timeToExpire: 6,
      isBlocked: true,
      timeToBlockExpire: 6,
    });
    clock.advance(6);
    expect((await store.increment('k', 10_000, 2, 0, 'default')).isBlocked).toBe(false);
  });

  it('survives Redis losing its script cache (EVALSHA falls back to EVAL)', async () => {
    await redis.script('FLUSH');
    expect((await store.hit('{tenant:d}:plan', windows, clock.now().getTime())).allowed).toBe(true);
  });
});
