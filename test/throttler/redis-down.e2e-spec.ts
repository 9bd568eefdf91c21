import { REDIS } from '@sesame/common';
import Redis from 'ioredis';
import request from 'supertest';
import { RunningApp, startManagementApi } from '../support/apps';
import { createTenant, TenantFixture } from '../support/fixtures';
import { freePort, Spawned, start } from './processes';
import { limitHeaders } from './support';

/** A throwaway Redis of the test's own, so it can be stopped and restarted. */
async function startRedis(port: number): Promise<Spawned> {
  const redis = start('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], process.env);
  const probe = new Redis(port, '127.0.0.1', { retryStrategy: (attempt) => (attempt > 100 ? null : 50), maxRetriesPerRequest: null });
  try {
    await probe.ping();
  } finally {
    probe.disconnect();
  }
  return redis;
}

const UNAVAILABLE = (instance: string) => ({
  type: 'urn:sesame:error:rate_limiter_unavailable',
  title: 'Service Unavailable',
  status: 503,
  detail: 'Rate limits cannot be checked right now, so the request was not processed; retry shortly',
  code: 'rate_limiter_unavailable',
  instance,
});

describe('when Redis is unreachable', () => {
  let port: number;
  let redis: Spawned;
  let api: RunningApp;
  let tenant: TenantFixture;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    api = await startManagementApi({ env: { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_COMMAND_TIMEOUT_MS: '300' } });
    tenant = await createTenant(api.url, 'pro');
  });
  afterAll(async () => {
    await api?.close();
    if (redis?.process.signalCode === null) redis.process.kill('SIGCONT');
    await redis?.stop();
  });

  const readTenant = () => request(api.url).get('/api/v2/tenant').set('Authorization', `Bearer ${tenant.apiKey}`);

  /**
   * Asserts a 503 problem with Retry-After and no RateLimit headers. It comes while Redis is still
   * frozen or down (REDIS_COMMAND_TIMEOUT_MS ends the wait); its milliseconds measure the machine's
   * load, so they are not asserted.
   */
  async function expectUnavailable(): Promise<void> {
    const response = await readTenant();
    expect(response.status).toBe(503);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json(;|$)/);
    expect(limitHeaders(response)).toEqual({
      limit: undefined,
      remaining: undefined,
      reset: undefined,
      policy: undefined,
      retryAfter: '1',
    });
    expect(response.body).toEqual(UNAVAILABLE('/api/v2/tenant'));
  }

  it('answers 503 promptly when Redis hangs, and when it is down, and recovers by itself', async () => {
    expect((await readTenant()).status).toBe(200);

    // Redis stops answering (the process is frozen): the command times out after REDIS_COMMAND_TIMEOUT_MS.
    redis.process.kill('SIGSTOP');
    try {
      await expectUnavailable();
    } finally {
      redis.process.kill('SIGCONT');
    }

    // Redis is gone: the client has no offline queue, so the command fails at once.
    await redis.stop();
    await expectUnavailable();
    await expectUnavailable();

    // Redis is back on the same address: the shared client reconnects, and requests are counted again.
    const client = api.app.get<Redis>(REDIS);
    // Not events.once: it rejects on the 'error' events of reconnection attempts made while Redis is still down.
    const ready = new Promise<void>((resolve) => client.once('ready', () => resolve()));
    redis = await startRedis(port);
    await ready;
    const response = await readTenant();
    expect(response.status).toBe(200);
    expect(response.headers['ratelimit-limit']).toBe('100000');
  });
});
