import { parseEnvironment } from '../config/parse-environment';
import { redisConnection, redisOptions } from './redis-connection';

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
