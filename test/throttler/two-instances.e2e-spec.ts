import request from 'supertest';
import { createTenant } from '../support/fixtures';
import { buildApps, Spawned, startManagementApi } from './processes';
import { createTenantKey } from './support';

const LIMIT = 25;

describe('two management-api processes share one budget through Redis', () => {
  const instances: { url: string; spawned: Spawned }[] = [];

  beforeAll(async () => {
    await buildApps();
    for (let i = 0; i < 2; i++) {
      instances.push(
        await startManagementApi({
          ...process.env,
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          PLAN_LIMITS: JSON.stringify({ basic: { minute: LIMIT, hour: 1000, day: 1000 } }),
          GLOBAL_RATE_LIMIT: '1000000',
        }),
      );
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.spawned.stop()));
  });

  it('answers exactly the limit of 2xx to concurrent requests spread over both instances', async () => {
    const [a, b] = instances;
    const tenant = await createTenant(a.url, 'basic');
    const secondKey = await createTenantKey(b.url, tenant.apiKey); // 1 request of the budget

    const attempts = 120;
    const responses = await Promise.all(
      Array.from({ length: attempts }, (_, i) => {
        const [instance, key] = i % 2 === 0 ? [a, tenant.apiKey] : [b, secondKey];
        return fetch(`${instance.url}/api/v2/tenant`, { headers: { Authorization: `Bearer ${key}` } });
      }),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT - 1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(attempts - (LIMIT - 1));

    // Either instance now refuses, and reports the same usage.
    for (const instance of instances) {
      const refused = await request(instance.url).get('/api/v2/tenant').set('Authorization', `Bearer ${tenant.apiKey}`);
      expect(refused.status).toBe(429);
      expect(refused.headers['ratelimit-remaining']).toBe('0');
    }
  });
});
