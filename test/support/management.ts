import { randomBytes, randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { Client } from 'pg';
import request, { Response, Test } from 'supertest';
import { AccessRow, Caller, OpenApiDocument, outcome, Outcome } from '../../apps/management-api/src/access/access-matrix';
import { registeredRoutes, RunningApp, startManagementApi, StartOptions } from './apps';
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

export type Method = 'get' | 'post' | 'delete' | 'put' | 'patch';

/** A request to the management API with `Authorization: Bearer <key>` (no header when key is null). */
export function call(url: string, method: Method, path: string, key: string | null, body?: unknown): Test {
  const agent = request(url);
  const test = agent[method](path.startsWith('/api/') ? path : `${V2}${path}`).set('Accept', 'application/json');
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
  const instance =
    expected.instance ?? path ?? (response.request as unknown as { url: string }).url.replace(/^https?:\/\/[^/]+/, '').split('?')[0];
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

export async function createOrganizationKey(
  url: string,
  organization: OrganizationFixture,
  name = 'Org key',
): Promise<{ id: string; key: string }> {
  const response = await call(url, 'post', `/organization/${organization.organizationId}/api_key`, organization.apiKey, { name }).expect(
    201,
  );
  return { id: response.body.id, key: response.body.key };
}

export async function createUser(
  url: string,
  organization: OrganizationFixture,
  body: Record<string, unknown>,
): Promise<Record<string, unknown> & { id: string }> {
  const response = await call(url, 'post', `/organization/${organization.organizationId}/user`, organization.apiKey, body).expect(201);
  return response.body;
}

/** Follows `nextCursor` from the first page to the last; returns every page's items. */
export async function walkPages(
  url: string,
  path: string,
  key: string,
  limit: number,
  query: Record<string, string> = {},
): Promise<{ pages: unknown[][]; items: Record<string, unknown>[] }> {
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
export async function countRows(
  table: 'tenant' | 'user' | 'application' | 'api_key' | 'organization',
  where: string,
  parameters: unknown[],
): Promise<number> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const result = await client.query(`SELECT count(*)::int AS count FROM "${table}" WHERE ${where}`, parameters);
    return result.rows[0].count as number;
  } finally {
    await client.end();
  }
}

/** What a stored passkey may differ in; the rest is a plausible synced passkey. */
export interface PasskeyRow {
  name?: string;
  deviceType?: 'singleDevice' | 'multiDevice';
  backedUp?: boolean;
  transports?: string[];
  createdAt?: Date;
  lastUsedAt?: Date | null;
  /** Null (the default): the hosted login page's. */
  rpId?: string | null;
}

/**
 * A passkey of the user, written straight to the run's database: the management API only lists and
 * removes passkeys (they are registered on the hosted login page), so its tests make their own. Its id.
 */
export async function insertPasskey(organizationId: string, userId: string, passkey: PasskeyRow = {}): Promise<string> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const result = await client.query(
      `INSERT INTO passkey (organization_id, user_id, credential_id, public_key, sign_count, device_type, backed_up, transports, name, created_at, last_used_at, rp_id)
       VALUES ($1, $2, $3, $4, 0, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
      [
        organizationId,
        userId,
        randomBytes(32),
        randomBytes(77),
        passkey.deviceType ?? 'multiDevice',
        passkey.backedUp ?? true,
        passkey.transports ?? ['internal', 'hybrid'],
        passkey.name ?? 'Chrome on macOS',
        passkey.createdAt ?? new Date(),
        passkey.lastUsedAt ?? null,
        passkey.rpId ?? null,
      ],
    );
    return result.rows[0].id;
  } finally {
    await client.end();
  }
}

// Probing every route's access rule (test/management/access.e2e-spec.ts and member-access.e2e-spec.ts).

/** The management API's OpenAPI document, as the app serves it. */
export async function servedOpenApi(url: string): Promise<OpenApiDocument> {
  return (await request(url).get(`${V2}/openapi.json`).expect(200)).body;
}

/** What the probes act on: a tenant with one organization holding a user and a web application. */
export interface ProbeWorld {
  /** Where the things probes act on are made. */
  url: string;
  tenantId: string;
  /** An owner key of the tenant, which makes them. */
  apiKey: string;
  organizationId: string;
  userId: string;
  applicationId: string;
}

/** A request that the route answers with success for a caller its rule admits. */
export interface Probe {
  method: Method;
  /** Under /api/v2 (or a whole /api/... path), with the row's query. */
  path: string;
  body?: unknown;
  /** The organization the path names, when it is not the world's (made for this probe). */
  organizationId?: string;
}

type Recipe = (world: ProbeWorld, label: string) => Promise<Omit<Probe, 'method'>>;

const fixed =
  (path: (world: ProbeWorld) => string, body?: (label: string) => unknown): Recipe =>
  async (world, label) => ({ path: path(world), body: body?.(label) });
const named = (label: string) => ({ name: label });
const newAddress = () => ({ email: `${randomUUID()}@example.com` });
const inOrganization = (world: ProbeWorld) => `/organization/${world.organizationId}`;

async function made(world: ProbeWorld, path: string, body: object): Promise<string> {
  return (await call(world.url, 'post', path, world.apiKey, body).expect(201)).body.id;
}

/** A public https address: saved, never called (no worker runs in the probing tests). */
const HOOK_URL = 'https://hooks.example.com/sesame';

/** A webhook endpoint made for the probe: its path. The probes' earlier endpoints go first (a tenant has at most 20). */
async function webhookEndpoint(world: ProbeWorld): Promise<string> {
  const existing = await call(world.url, 'get', '/tenant/webhook_endpoint?limit=100', world.apiKey).expect(200);
  for (const endpoint of existing.body.data as { id: string }[])
    await call(world.url, 'delete', `/tenant/webhook_endpoint/${endpoint.id}`, world.apiKey).expect(204);
  return `/tenant/webhook_endpoint/${await made(world, '/tenant/webhook_endpoint', { url: HOOK_URL })}`;
}

/** A failed delivery of the endpoint, written straight to the run's database (no worker runs in these tests): its id and its event's. */
export async function insertFailedDelivery(tenantId: string, endpointId: string): Promise<{ deliveryId: string; eventId: string }> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const result = await client.query(
      `WITH event AS (INSERT INTO webhook_event (tenant_id, type, payload, dispatched_at) VALUES ($1, 'ping', '{}', now()) RETURNING id)
       INSERT INTO webhook_delivery (event_id, endpoint_id, status, attempts, finished_at) SELECT id, $2, 'failed', 1, now() FROM event
       RETURNING id AS "deliveryId", event_id AS "eventId"`,
      [tenantId, endpointId],
    );
    return result.rows[0];
  } finally {
    await client.end();
  }
}

/**
 * How to call each route of the management API (not who may: that is its rule), keyed as the
 * OpenAPI document names it. Changes act on things made for the probe, so every caller the rule
 * admits succeeds; bodies carry the caller's label where a name is written.
 */
const RECIPES: Record<string, Recipe> = {
  'GET /api/health': fixed(() => '/api/health'),
  'GET /api/v2/me': fixed(() => '/me'),
  'POST /api/v2/tenant': fixed(
    () => '/tenant',
    (label) => ({ name: label, plan: 'pro' }),
  ),
  'GET /api/v2/tenant': fixed(() => '/tenant'),
  'GET /api/v2/tenant/{tenantId}': fixed((w) => `/tenant/${w.tenantId}`),
  'POST /api/v2/tenant/{tenantId}': fixed((w) => `/tenant/${w.tenantId}`, named),
  'GET /api/v2/tenant/usage': fixed(() => '/tenant/usage'),
  'GET /api/v2/tenant/usage/history': fixed(() => '/tenant/usage/history'),
  'GET /api/v2/tenant/audit_event': fixed(() => '/tenant/audit_event'),
  'GET /api/v2/tenant/member': fixed(() => '/tenant/member'),
  'POST /api/v2/tenant/member': fixed(
    () => '/tenant/member',
    () => ({ ...newAddress(), role: 'viewer' }),
  ),
  'POST /api/v2/tenant/member/{memberId}': async (w) => ({
    path: `/tenant/member/${await made(w, '/tenant/member', { ...newAddress(), role: 'viewer' })}`,
    body: { role: 'admin' },
  }),
  'DELETE /api/v2/tenant/member/{memberId}': async (w) => ({
    path: `/tenant/member/${await made(w, '/tenant/member', { ...newAddress(), role: 'viewer' })}`,
  }),
  'GET /api/v2/tenant/api_key': fixed(() => '/tenant/api_key'),
  'POST /api/v2/tenant/api_key': fixed(() => '/tenant/api_key', named),
  'DELETE /api/v2/tenant/api_key/{keyId}': async (w) => ({
    path: `/tenant/api_key/${await made(w, '/tenant/api_key', { name: 'To revoke', role: 'viewer' })}`,
  }),
  'GET /api/v2/tenant/webhook_endpoint': fixed(() => '/tenant/webhook_endpoint'),
  'POST /api/v2/tenant/webhook_endpoint': fixed(
    () => '/tenant/webhook_endpoint',
    (label) => ({ url: HOOK_URL, description: label }),
  ),
  'GET /api/v2/tenant/webhook_endpoint/{endpointId}': async (w) => ({ path: await webhookEndpoint(w) }),
  'POST /api/v2/tenant/webhook_endpoint/{endpointId}': async (w, label) => ({
    path: await webhookEndpoint(w),
    body: { description: label },
  }),
  'DELETE /api/v2/tenant/webhook_endpoint/{endpointId}': async (w) => ({ path: await webhookEndpoint(w) }),
  'POST /api/v2/tenant/webhook_endpoint/{endpointId}/rotate_secret': async (w) => ({ path: `${await webhookEndpoint(w)}/rotate_secret` }),
  'POST /api/v2/tenant/webhook_endpoint/{endpointId}/test': async (w) => ({ path: `${await webhookEndpoint(w)}/test` }),
  'GET /api/v2/tenant/webhook_endpoint/{endpointId}/delivery': async (w) => ({ path: `${await webhookEndpoint(w)}/delivery` }),
  'POST /api/v2/tenant/webhook_endpoint/{endpointId}/delivery/{deliveryId}/redeliver': async (w) => {
    const endpoint = await webhookEndpoint(w);
    const { deliveryId } = await insertFailedDelivery(w.tenantId, endpoint.split('/').pop()!);
    return { path: `${endpoint}/delivery/${deliveryId}/redeliver` };
  },
  'POST /api/v2/tenant/webhook_event/{eventId}/redeliver': async (w) => {
    const endpoint = await webhookEndpoint(w);
    const { eventId } = await insertFailedDelivery(w.tenantId, endpoint.split('/').pop()!);
    return { path: `/tenant/webhook_event/${eventId}/redeliver` };
  },
  'GET /api/v2/organization': fixed(() => '/organization'),
  'POST /api/v2/organization': fixed(() => '/organization', named),
  'GET /api/v2/organization/{id}': fixed(inOrganization),
  'POST /api/v2/organization/{id}': fixed(inOrganization, named),
  'DELETE /api/v2/organization/{id}': async (w) => {
    const organizationId = await made(w, '/organization', { name: 'To delete' });
    return { path: `/organization/${organizationId}`, organizationId };
  },
  'GET /api/v2/organization/{organizationId}/login_attempt': fixed((w) => `${inOrganization(w)}/login_attempt`),
  'GET /api/v2/organization/{organizationId}/user': fixed((w) => `${inOrganization(w)}/user`),
  'POST /api/v2/organization/{organizationId}/user': fixed((w) => `${inOrganization(w)}/user`, newAddress),
  'GET /api/v2/organization/{organizationId}/user/{userId}': fixed((w) => `${inOrganization(w)}/user/${w.userId}`),
  'POST /api/v2/organization/{organizationId}/user/{userId}': fixed((w) => `${inOrganization(w)}/user/${w.userId}`, named),
  'DELETE /api/v2/organization/{organizationId}/user/{userId}': async (w) => ({
    path: `${inOrganization(w)}/user/${await made(w, `${inOrganization(w)}/user`, newAddress())}`,
  }),
  'GET /api/v2/organization/{organizationId}/user/{userId}/passkey': fixed((w) => `${inOrganization(w)}/user/${w.userId}/passkey`),
  'DELETE /api/v2/organization/{organizationId}/user/{userId}/passkey/{passkeyId}': async (w) => ({
    path: `${inOrganization(w)}/user/${w.userId}/passkey/${await insertPasskey(w.organizationId, w.userId)}`,
  }),
  'GET /api/v2/organization/{organizationId}/application': fixed((w) => `${inOrganization(w)}/application`),
  'POST /api/v2/organization/{organizationId}/application': fixed(
    (w) => `${inOrganization(w)}/application`,
    (label) => ({ name: label, type: 'web' }),
  ),
  'GET /api/v2/organization/{organizationId}/application/{applicationId}': fixed(
    (w) => `${inOrganization(w)}/application/${w.applicationId}`,
  ),
  'POST /api/v2/organization/{organizationId}/application/{applicationId}': fixed(
    (w) => `${inOrganization(w)}/application/${w.applicationId}`,
    named,
  ),
  'POST /api/v2/organization/{organizationId}/application/{applicationId}/rotate_secret': async (w) => ({
    path: `${inOrganization(w)}/application/${await made(w, `${inOrganization(w)}/application`, { name: 'To rotate', type: 'web' })}/rotate_secret`,
  }),
  'DELETE /api/v2/organization/{organizationId}/application/{applicationId}': async (w) => ({
    path: `${inOrganization(w)}/application/${await made(w, `${inOrganization(w)}/application`, { name: 'To delete', type: 'ios' })}`,
  }),
  'GET /api/v2/organization/{organizationId}/api_key': fixed((w) => `${inOrganization(w)}/api_key`),
  'POST /api/v2/organization/{organizationId}/api_key': fixed((w) => `${inOrganization(w)}/api_key`, named),
  'DELETE /api/v2/organization/{organizationId}/api_key/{keyId}': async (w) => ({
    path: `${inOrganization(w)}/api_key/${await made(w, `${inOrganization(w)}/api_key`, { name: 'To revoke', role: 'viewer' })}`,
  }),
};

export const routeOf = (row: AccessRow) => `${row.method} ${row.path}`;

/** A request for the row that succeeds for a caller the route admits; `label` names what it writes. */
export async function probe(row: AccessRow, world: ProbeWorld, label: string): Promise<Probe> {
  const recipe = RECIPES[routeOf(row)];
  if (!recipe) throw new Error(`No probe for ${routeOf(row)}: add one to RECIPES in test/support/management.ts`);
  const target = await recipe(world, label);
  return { method: row.method.toLowerCase() as Method, ...target, path: row.query ? `${target.path}?${row.query}` : target.path };
}

/** The one success status the document gives the row's operation. */
export function successStatus(document: OpenApiDocument, row: AccessRow): number {
  const operation = document.paths[row.path][row.method.toLowerCase()] as { responses: Record<string, unknown> };
  const statuses = Object.keys(operation.responses).filter((status) => status.startsWith('2'));
  if (statuses.length !== 1) throw new Error(`${routeOf(row)} documents ${statuses.length} success statuses`);
  return Number(statuses[0]);
}

/** What a caller gets: the rule's outcome, and 404 for another tenant's objects, which the services do not find either. */
export function expectedOutcome(row: AccessRow, caller: Caller): Outcome {
  const result = outcome(row.access, caller);
  return result === 'allowed' && caller.reach === 'otherTenant' && row.path.includes('{') ? { status: 404, code: 'not_found' } : result;
}

const REFUSAL_DETAILS: Record<string, (row: AccessRow, caller: Caller) => string> = {
  platform_key_required: () => 'Only the platform API key can do this',
  tenant_key_required: (_, caller) =>
    caller.kind === 'platform'
      ? 'The platform key manages tenants only; use a tenant or organization key'
      : 'Only a tenant API key or a member can do this, not an organization key',
  insufficient_role: (row, caller) =>
    `This needs the ${row.access.kind === 'rule' && row.access.rule.role} role; ${caller.kind === 'member' ? 'your role in this tenant' : "this key's role"} is ${caller.role}`,
  reauthentication_required: () => 'This change needs a recent sign-in: confirm with the code of a new sign-in e-mail, then try again',
  member_token_required: () => 'Only a console access token can do this',
};

/**
 * The expected answer, in the words of `describeAnswer`: the success status (with whether an
 * application's secret is in it, on the routes whose rule says how to read one), a 404 like one
 * for ids that do not exist, or the refusal's status, code and detail.
 */
export function expectedAnswer(document: OpenApiDocument, row: AccessRow, caller: Caller, reauthSeconds: number): string {
  const expected = expectedOutcome(row, caller);
  if (expected === 'allowed') {
    const status = successStatus(document, row);
    const readsSecret = row.query === 'include=secret' || (row.access.kind === 'rule' && row.access.rule.includeSecret);
    return readsSecret ? `${status}, secret ${row.query ? 'answered' : 'withheld'}` : `${status}`;
  }
  if (expected.status === 404) return '404, like ids that do not exist';
  const detail = REFUSAL_DETAILS[expected.code](row, caller);
  return `403 ${expected.code}: ${detail}${expected.code === 'reauthentication_required' ? ` (maxAgeSeconds ${reauthSeconds})` : ''}`;
}

/**
 * What an answer says about access (see expectedAnswer). A 404 is compared with the same request
 * for random ids (`again`), which must get the very same answer but for the path.
 */
export async function describeAnswer(response: Response, again: (path: string) => Test): Promise<string> {
  const { url, method } = response.request as unknown as { url: string; method: string };
  const path = url.replace(/^https?:\/\/[^/]+/, '');
  const type = response.headers['content-type'] ?? null;
  if (response.status < 300) {
    if (type !== (response.status === 204 ? null : 'application/json; charset=utf-8')) return `${response.status} as ${type}`;
    // Reads of an application say whether its secret came with it (creation and rotation answer it by design).
    if (method !== 'GET' || !('clientSecret' in response.body)) return `${response.status}`;
    return `${response.status}, secret ${typeof response.body.clientSecret === 'string' && response.body.clientSecret.startsWith('cs_') ? 'answered' : 'withheld'}`;
  }
  if (type !== 'application/problem+json; charset=utf-8') return `${response.status} as ${type}`;
  if (response.status === 404) {
    const missing = await again(withRandomIds(path));
    const same =
      missing.status === 404 &&
      missing.headers['content-type'] === type &&
      JSON.stringify({ ...response.body, instance: 0 }) === JSON.stringify({ ...missing.body, instance: 0 });
    return same
      ? '404, like ids that do not exist'
      : `404 ${JSON.stringify(response.body)}, unlike ${missing.status} ${JSON.stringify(missing.body)} for random ids`;
  }
  const { code, detail, maxAgeSeconds } = response.body;
  return `${response.status} ${code}: ${detail}${maxAgeSeconds === undefined ? '' : ` (maxAgeSeconds ${maxAgeSeconds})`}`;
}

/** Where each change that writes a caller's label shows it: one name (the last writer's) or a list of all. */
const WRITTEN_NAMES: Record<string, { list: boolean; read: (world: ProbeWorld) => Promise<string[]> }> = {
  'POST /api/v2/tenant/{tenantId}': { list: false, read: (w) => nameOf(w, `/tenant/${w.tenantId}`) },
  'POST /api/v2/tenant/api_key': { list: true, read: (w) => namesIn(w, '/tenant/api_key') },
  'POST /api/v2/organization': { list: true, read: (w) => namesIn(w, '/organization', w.organizationId) },
  'POST /api/v2/organization/{id}': { list: false, read: (w) => nameOf(w, inOrganization(w)) },
  'POST /api/v2/organization/{organizationId}/user/{userId}': {
    list: false,
    read: (w) => nameOf(w, `${inOrganization(w)}/user/${w.userId}`),
  },
  'POST /api/v2/organization/{organizationId}/application': {
    list: true,
    read: (w) => namesIn(w, `${inOrganization(w)}/application`, w.applicationId),
  },
  'POST /api/v2/organization/{organizationId}/application/{applicationId}': {
    list: false,
    read: (w) => nameOf(w, `${inOrganization(w)}/application/${w.applicationId}`),
  },
  'POST /api/v2/organization/{organizationId}/api_key': { list: true, read: (w) => namesIn(w, `${inOrganization(w)}/api_key`) },
};

async function nameOf(world: ProbeWorld, path: string): Promise<string[]> {
  return [(await call(world.url, 'get', path, world.apiKey).expect(200)).body.name];
}

/** The names in a list, but that of the world's own object (renamed by other probes). */
async function namesIn(world: ProbeWorld, path: string, exceptId?: string): Promise<string[]> {
  return (await walkPages(world.url, path, world.apiKey, 100)).items
    .filter((item) => item.id !== exceptId)
    .map((item) => item.name as string);
}

/**
 * After every caller (in this order) has probed every route, the labels each change that writes
 * one left, and the labels it should have left: those of every caller its rule admits (a list), or
 * of the last of them (a single name). A caller without a `caller` was never authenticated; one of
 * another tenant writes in its own.
 */
export async function writtenLabels(
  world: ProbeWorld,
  rows: AccessRow[],
  callers: { label: string; caller?: Caller }[],
): Promise<{ found: Record<string, string[]>; expected: Record<string, string[]> }> {
  const labels = new Set(callers.map(({ label }) => label));
  const found: Record<string, string[]> = {};
  const expected: Record<string, string[]> = {};
  for (const [route, { list, read }] of Object.entries(WRITTEN_NAMES)) {
    const row = rows.find((candidate) => routeOf(candidate) === route && !candidate.query)!;
    const admitted = callers
      .filter(({ caller }) => caller && caller.reach !== 'otherTenant' && expectedOutcome(row, caller) === 'allowed')
      .map(({ label }) => label);
    found[route] = (await read(world)).filter((name) => labels.has(name)).sort();
    expected[route] = (list ? admitted : admitted.slice(-1)).sort();
  }
  return { found, expected };
}

/**
 * Every route the app serves is in its OpenAPI document with a rule (accessRows throws for one
 * without), but health (public) and the person route; and the probes know how to call each.
 */
export function expectEveryRouteRuled(app: RunningApp, rows: AccessRow[]): void {
  const served = registeredRoutes(app)
    .filter((route) => !/^GET \/api\/(v2\/openapi\.(json|yaml)|metrics)$/.test(route))
    .map((route) => route.replace(/:(\w+)/g, '{$1}'));
  const documented = rows.filter((row) => !row.query).map(routeOf);
  expect([...documented].sort()).toEqual([...served].sort());
  expect(rows.filter((row) => row.access.kind !== 'rule').map((row) => [routeOf(row), row.access.kind])).toEqual([
    ['GET /api/health', 'public'],
    ['GET /api/v2/me', 'person'],
  ]);
  expect(Object.keys(RECIPES).sort()).toEqual([...documented].sort());
}

export { registeredRoutes } from './apps';
