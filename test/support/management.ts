import { randomBytes, randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { Client } from 'pg';
import request, { Response, Test } from 'supertest';
import { RunningApp, startManagementApi, StartOptions } from './apps';
import { OrganizationFixture } from './fixtures';
import { TEST_PLATFORM_API_KEY } from './test-env';

/**
 * Plan and per-IP limits far above what a test file sends, so functional tests never meet the
 * tenant throttler (its own tests set real limits).
 */
const GENEROUS = { minute: 1_000_000, hour: 1_000_000, day: 1_000_000 };
export const UNTHROTTLED_ENV: Record<string, string> = {
  PLAN_LIMITS: JSON.stringify({ free: GENEROUS, basic: GENEROUS, pro: GENEROUS, enterprise: GENEROUS }),
  GLOBAL_RATE_LIMIT: '10000000',
};

/** The management API as the functional tests use it: real HTTP, Postgres and Redis, generous limits. */
export function startUnthrottledManagementApi(options: StartOptions = {}): Promise<RunningApp> {
  return startManagementApi({ ...options, env: { ...UNTHROTTLED_ENV, ...options.env } });
}

export const V2 = '/api/v2';
export const PLATFORM_KEY = TEST_PLATFORM_API_KEY;

type Method = 'get' | 'post' | 'delete' | 'put' | 'patch';

/** A request to the management API with `Authorization: Bearer <key>` (no header when key is null). */
export function call(url: string, method: Method, path: string, key: string | null, body?: unknown): Test {
  const test = request(url)[method](path.startsWith('/api/') ? path : `${V2}${path}`).set('Accept', 'application/json');
  if (key !== null) test.set('Authorization', `Bearer ${key}`);
  if (body !== undefined) test.send(body as object);
  return test;
}

/** A syntactically valid API key that was never issued. */
export function unknownApiKey(): string {
  return `sk_${randomBytes(32).toString('base64url')}`;
}

export interface ExpectedProblem {
  status: number;
  code: string;
  detail: string;
  /** Defaults to the request path without query. */
  instance?: string;
  errors?: { field: string; messages: string[] }[];
}

/** Asserts an RFC 9457 answer exactly: status, media type and the whole body. */
export function expectProblem(response: Response, expected: ExpectedProblem, path?: string): void {
  const instance = expected.instance ?? path ?? (response.request as unknown as { url: string }).url.replace(/^https?:\/\/[^/]+/, '').split('?')[0];
  expect({ status: response.status, contentType: response.headers['content-type'], body: response.body }).toEqual({
    status: expected.status,
    contentType: 'application/problem+json; charset=utf-8',
    body: {
      type: `urn:sesame:error:${expected.code}`,
      title: STATUS_CODES[expected.status],
      status: expected.status,
      detail: expected.detail,
      code: expected.code,
      instance,
      ...(expected.errors ? { errors: expected.errors } : {}),
    },
  });
}

/** A `validation_failed` problem whose detail lists every message, as the API builds it. */
export function validationProblem(errors: { field: string; messages: string[] }[], detail?: string): ExpectedProblem {
  return {
    status: 400,
    code: 'validation_failed',
    detail: detail ?? errors.map((error) => error.messages.join(', ')).join('; '),
    errors,
  };
}

export const INVALID_API_KEY_CHALLENGE = 'Bearer realm="sesame", error="invalid_token", error_description="The API key is not valid"';

export function expectMissingApiKey(response: Response): void {
  expectProblem(response, { status: 401, code: 'missing_api_key', detail: 'Send an API key as `Authorization: Bearer <key>`' });
  expect(response.headers['www-authenticate']).toBe('Bearer realm="sesame"');
}

export function expectInvalidApiKey(response: Response): void {
  expectProblem(response, { status: 401, code: 'invalid_api_key', detail: 'The API key is not valid' });
  expect(response.headers['www-authenticate']).toBe(INVALID_API_KEY_CHALLENGE);
}

/** Replaces every UUID of a path by a fresh random one: the same request for something that does not exist. */
export function withRandomIds(path: string): string {
  return path.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, () => randomUUID());
}

/**
 * Asserts that a 404 for something outside the key's reach is indistinguishable from a 404 for
 * something that does not exist: same status, headers that matter and body (but for the path).
 */
export async function expectSameAsNonexistent(url: string, method: Method, path: string, key: string, body?: unknown): Promise<void> {
  const foreign = await call(url, method, path, key, body);
  const randomPath = withRandomIds(path);
  const missing = await call(url, method, randomPath, key, body);
  expect(foreign.status).toBe(404);
  expect({ ...foreign.body, instance: undefined }).toEqual({ ...missing.body, instance: undefined });
  expect(foreign.headers['content-type']).toBe(missing.headers['content-type']);
  expect(foreign.body.instance).toBe(`${V2}${path}`);
  expect(missing.body.instance).toBe(`${V2}${randomPath}`);
}

export async function createOrganizationKey(url: string, organization: OrganizationFixture, name = 'Org key'): Promise<{ id: string; key: string }> {
  const response = await call(url, 'post', `/organization/${organization.organizationId}/api_key`, organization.apiKey, { name }).expect(201);
  return { id: response.body.id, key: response.body.key };
}

export async function createUser(url: string, organization: OrganizationFixture, body: Record<string, unknown>): Promise<Record<string, unknown> & { id: string }> {
  const response = await call(url, 'post', `/organization/${organization.organizationId}/user`, organization.apiKey, body).expect(201);
  return response.body;
}

/** Follows `nextCursor` from the first page to the last; returns every page's items. */
export async function walkPages(url: string, path: string, key: string, limit: number, query: Record<string, string> = {}): Promise<{ pages: unknown[][]; items: Record<string, unknown>[] }> {
  const pages: Record<string, unknown>[][] = [];
  let cursor: string | null = null;
  do {
    const response: Response = await call(url, 'get', path, key)
      .query({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) })
      .expect(200);
    expect(Object.keys(response.body).sort()).toEqual(['data', 'nextCursor']);
    pages.push(response.body.data);
    cursor = response.body.nextCursor;
    if (pages.length > 1000) throw new Error('pagination does not end');
  } while (cursor !== null);
  return { pages, items: pages.flat() };
}

/** Reads rows straight from the run's database, to check what the API cannot show (rows removed with their parent). */
export async function countRows(table: 'tenant' | 'user' | 'application' | 'api_key' | 'organization', where: string, parameters: unknown[]): Promise<number> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const result = await client.query(`SELECT count(*)::int AS count FROM "${table}" WHERE ${where}`, parameters);
    return result.rows[0].count as number;
  } finally {
    await client.end();
  }
}

export { registeredRoutes } from './apps';
