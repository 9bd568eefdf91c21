import { parseEnvironment } from '../config/parse-environment';
import { BULL_RECONNECT_CAP_MS, bullRedisOptions, redisConnection, redisOptions } from './redis-connection';

const REQUIRED = { DATABASE_URL: 'postgres://localhost/sesame', SECRETS_KEY: 'a'.repeat(64) };

describe('redisConnection', () => {
  it('takes host, port, credentials, database and TLS from REDIS_URL', () => {
    const config = parseEnvironment({ ...REQUIRED, REDIS_URL: 'rediss://app:p%40ss@redis.example.com:6380/2' });
    expect(redisConnection(config)).toEqual({
      host: 'redis.example.com',
      port: 6380,
      username: 'app',
      password: 'p@ss',
      db: 2,
      tls: {},
    });
    expect(redisConnection(parseEnvironment({ ...REQUIRED, REDIS_URL: 'redis://[::1]' }))).toEqual({
      host: '::1',
      port: 6379,
      username: undefined,
      password: undefined,
      db: 0,
    });
  });

  it('asks the sentinels for the primary, with TLS to both when REDIS_TLS is on', () => {
    const config = parseEnvironment({
      ...REQUIRED,
      REDIS_SENTINELS: 's1:26379,s2:26379',
      REDIS_SENTINEL_NAME: 'sesame',
      REDIS_PASSWORD: 'pw',
      REDIS_TLS: 'on',
    });
    expect(redisConnection(config)).toEqual({
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      name: 'sesame',
      username: undefined,
      password: 'pw',
      sentinelPassword: undefined,
      tls: {},
      sentinelTLS: {},
      enableTLSForSentinelMode: true,
    });
  });
});

describe('redisOptions', () => {
  it('without a failover wait, a command fails at once while Redis is away', () => {
    const options = redisOptions(parseEnvironment(REQUIRED));
    expect(options).toMatchObject({ commandTimeout: 1000, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    expect(options.reconnectOnError!(new Error('READONLY You can’t write against a read only replica.'))).toBe(false);
  });

  it('with one, a command waits for the new primary (queued or resent) at most the wait longer, and a demoted primary sends it on', () => {
    const options = redisOptions(parseEnvironment({ ...REQUIRED, REDIS_SENTINELS: 's1:26379' }));
    expect(options).toMatchObject({ commandTimeout: 6000, enableOfflineQueue: true, maxRetriesPerRequest: null });
    expect(options.reconnectOnError!(new Error('READONLY You can’t write against a read only replica.'))).toBe(2);
    expect(options.reconnectOnError!(new Error('ERR unknown command'))).toBe(false);
  });
});

describe('bullRedisOptions', () => {
  const config = parseEnvironment({ ...REQUIRED, REDIS_URL: 'redis://redis.example.com:6380/2' });
  const delay = (attempt: number) => bullRedisOptions(config).retryStrategy!(attempt) as number;

  it('connects where every other connection does', () => {
    const { retryStrategy, ...where } = bullRedisOptions(config);
    expect(where).toEqual(redisConnection(config));
    expect(retryStrategy).toBeInstanceOf(Function);
  });

  it("tries again as soon as Bull's own strategy does (e^attempt ms), so its close does not find a reconnect of ours under way", () => {
    for (let attempt = 1; attempt <= 6; attempt += 1) expect(delay(attempt)).toBe(Math.exp(attempt));
  });

  it('but never waits more than a second between tries, however long Redis was away (Bull waits 3, 8, then 20 s)', () => {
    expect(delay(7)).toBe(BULL_RECONNECT_CAP_MS);
    for (const attempt of [8, 9, 10, 50, 1000]) expect(delay(attempt)).toBe(BULL_RECONNECT_CAP_MS);
    expect(BULL_RECONNECT_CAP_MS).toBe(1000);
  });
});
