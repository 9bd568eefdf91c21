import { randomBytes } from 'node:crypto';
import request, { Response } from 'supertest';

/**
 * A Redis key prefix of its own (under the run's, so the global teardown removes it): the
 * per-IP buckets of apps in parallel test files would otherwise be shared, as all of them call
 * from 127.0.0.1.
 */
export function ownRedisPrefix(): string {
  return `${process.env.REDIS_PREFIX}.${randomBytes(4).toString('hex')}`;
}

/** The rate-limit headers of a response, exactly as sent (undefined when absent). */
export function limitHeaders(response: Response): Record<string, string | undefined> {
  return {
    limit: response.headers['ratelimit-limit'],
    remaining: response.headers['ratelimit-remaining'],
    reset: response.headers['ratelimit-reset'],
    policy: response.headers['ratelimit-policy'],
    retryAfter: response.headers['retry-after'],
  };
}

/** GET /api/v2/tenant with an API key: the cheapest request every kind of key may make. */
export function readTenant(url: string, apiKey: string): Promise<Response> {
  return request(url).get('/api/v2/tenant').set('Authorization', `Bearer ${apiKey}`);
}

export async function createTenantKey(url: string, tenantKey: string): Promise<string> {
  const response = await request(url)
    .post('/api/v2/tenant/api_key')
    .set('Authorization', `Bearer ${tenantKey}`)
    .send({ name: 'second key' })
    .expect(201);
  return response.body.key;
}

export async function createOrganizationKey(url: string, key: string, organizationId: string): Promise<string> {
  const response = await request(url)
    .post(`/api/v2/organization/${organizationId}/api_key`)
    .set('Authorization', `Bearer ${key}`)
    .send({ name: 'organization key' })
    .expect(201);
  return response.body.key;
}

/** The 429 problem body of a plan limit. */
export function planLimitProblem(window: string, limit: number, retryAfter: number, instance = '/api/v2/tenant') {
  return {
    type: 'urn:sesame:error:rate_limited',
    title: 'Too Many Requests',
    status: 429,
    detail: `The tenant's plan allows ${limit} requests per ${window}; retry in ${retryAfter} seconds`,
    code: 'rate_limited',
    instance,
    scope: 'plan',
    window,
    limit,
    retryAfter,
  };
}
