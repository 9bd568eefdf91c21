import request from 'supertest';
import { ManualClock } from '@sesame/common';
import { RunningApp, startManagementApi } from '../support/apps';
import { createOrganization, createTenant } from '../support/fixtures';
import { TEST_PLATFORM_API_KEY } from '../support/test-env';
import { createOrganizationKey, createTenantKey, limitHeaders, planLimitProblem, readTenant } from './support';

const HOUR = 3600;

describe('plan limits: one budget per tenant, shared by all its keys', () => {
  const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
  let api: RunningApp;

  beforeAll(async () => {
    api = await startManagementApi({
      clock,
      env: { PLAN_LIMITS: JSON.stringify({ basic: { minute: 1000, hour: 50, day: 1000 } }), GLOBAL_RATE_LIMIT: '1000000' },
    });
  });
  afterAll(() => api.close());

  it("reproduces the specification's example: 20 + 40 requests by two keys, then 429 for every key of the tenant", async () => {
    const tenant = await createTenant(api.url, 'basic');
    const organization = await createOrganization(api.url, tenant);
    const secondKey = await createTenantKey(api.url, tenant.apiKey);
    const organizationKey = await createOrganizationKey(api.url, tenant.apiKey, organization.organizationId);
    const otherTenant = await createTenant(api.url, 'basic');
    // The three set-up requests above leave the hour window: the scenario starts with a full hour.
    clock.advance(2 * HOUR);
    const policy = '1000;w=60, 50;w=3600, 1000;w=86400';

    for (let i = 1; i <= 20; i++) {
      const response = await readTenant(api.url, tenant.apiKey);
      expect(response.status).toBe(200);
      expect(limitHeaders(response)).toEqual({ limit: '50', remaining: String(50 - i), reset: '3600', policy, retryAfter: undefined });
    }

    clock.advance(600);
    for (let i = 21; i <= 60; i++) {
      const response = await readTenant(api.url, secondKey);
      if (i <= 50) {
        expect(response.status).toBe(200);
        // The oldest request of the hour (the first key's, 600 s ago) leaves the window in 3000 s.
        expect(limitHeaders(response)).toEqual({ limit: '50', remaining: String(50 - i), reset: '3000', policy, retryAfter: undefined });
      } else {
        expect(response.status).toBe(429);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json(;|$)/);
        expect(limitHeaders(response)).toEqual({ limit: '50', remaining: '0', reset: '3000', policy, retryAfter: '3000' });
        expect(response.body).toEqual(planLimitProblem('hour', 50, 3000));
      }
    }

    // A third key, of one of the tenant's organizations, shares the exhausted budget.
    const byOrganizationKey = await request(api.url)
      .get(`/api/v2/organization/${organization.organizationId}`)
      .set('Authorization', `Bearer ${organizationKey}`);
    expect(byOrganizationKey.status).toBe(429);
    expect(byOrganizationKey.body).toEqual(planLimitProblem('hour', 50, 3000, `/api/v2/organization/${organization.organizationId}`));
    expect((await readTenant(api.url, tenant.apiKey)).status).toBe(429);

    // A refused request does no work: this organization is never created.
    const refusedCreate = await request(api.url)
      .post('/api/v2/organization')
      .set('Authorization', `Bearer ${secondKey}`)
      .send({ name: 'Refused organization' });
    expect(refusedCreate.status).toBe(429);

    // Another tenant is unaffected.
    const other = await readTenant(api.url, otherTenant.apiKey);
    expect(other.status).toBe(200);
    expect(limitHeaders(other)).toEqual({ limit: '50', remaining: '49', reset: '3600', policy, retryAfter: undefined });

    // The platform key is exempt from plan limits (only the global per-IP limit counts it).
    const platform = await request(api.url)
      .get(`/api/v2/tenant/${tenant.tenantId}`)
      .set('Authorization', `Bearer ${TEST_PLATFORM_API_KEY}`);
    expect(platform.status).toBe(200);
    expect(platform.headers['ratelimit-limit']).toBe('1000000');

    // An hour after the first key's requests they leave the rolling window: 20 requests are free again.
    clock.advance(3000);
    const later = await request(api.url)
      .get(`/api/v2/organization/${organization.organizationId}`)
      .set('Authorization', `Bearer ${organizationKey}`);
    expect(later.status).toBe(200);
    expect(limitHeaders(later)).toEqual({ limit: '50', remaining: '19', reset: '600', policy, retryAfter: undefined });

    const usage = await request(api.url).get('/api/v2/tenant/usage').set('Authorization', `Bearer ${organizationKey}`).expect(200);
    expect(limitHeaders(usage)).toEqual({ limit: '50', remaining: '18', reset: '600', policy, retryAfter: undefined });
    expect(usage.body).toEqual({
      tenantId: tenant.tenantId,
      plan: 'basic',
      windows: {
        minute: { windowSeconds: 60, limit: 1000, used: 2, remaining: 998, resetSeconds: 60 },
        hour: { windowSeconds: 3600, limit: 50, used: 32, remaining: 18, resetSeconds: 600 },
        // 3 set-up requests 3 h ago, 20 + 30 accepted, and the last two.
        day: { windowSeconds: 86400, limit: 1000, used: 55, remaining: 945, resetSeconds: 86400 - 3 * HOUR },
      },
    });

    const organizations = await request(api.url).get('/api/v2/organization').set('Authorization', `Bearer ${tenant.apiKey}`).expect(200);
    expect(organizations.body.data.map((org: { name: string }) => org.name)).not.toContain('Refused organization');
    expect(organizations.body.data).toHaveLength(1);
  });
});
