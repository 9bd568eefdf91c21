import { randomUUID } from 'node:crypto';
import { RunningApp } from '../support/apps';
import { createApplication, createOrganization, createTenant, OrganizationFixture, TenantFixture } from '../support/fixtures';
import {
  call,
  createOrganizationKey,
  createUser,
  expectInvalidApiKey,
  expectMissingApiKey,
  expectProblem,
  expectSameAsNonexistent,
  PLATFORM_KEY,
  registeredRoutes,
  startUnthrottledManagementApi,
  unknownApiKey,
} from '../support/management';

/**
 * Who may call what. For every management endpoint and every kind of caller:
 * - the right kind of key in reach succeeds;
 * - the wrong kind of key gets 403 with a code saying which kind is needed;
 * - a key of the right kind asking for another tenant's or another organization's resource gets
 *   404, exactly like a random id;
 * - no key, a malformed, unknown or revoked key gets 401 with a Bearer challenge.
 */

type Caller = 'platform' | 'tenant' | 'org' | 'siblingOrg' | 'otherTenant' | 'none' | 'malformed' | 'unknown' | 'revokedTenantKey' | 'revokedOrgKey';
type Method = 'get' | 'post' | 'delete';
type Outcome = number | 'notFound' | 'platformKeyRequired' | 'tenantKeyRequired' | 'tenantScopeRequired' | 'memberTokenRequired';

interface World {
  tenant: TenantFixture;
  org: OrganizationFixture & { orgKey: string };
  sibling: OrganizationFixture & { orgKey: string };
  other: TenantFixture;
  userId: string;
  appId: string;
  keys: Record<Caller, string | null>;
}

interface Endpoint {
  method: Method;
  route: string;
  /** The concrete path (and, for a fresh organization, the key of that organization). */
  target: (world: World) => Promise<{ path: string; orgKey?: string }>;
  body?: (caller: Caller) => unknown;
  outcomes: Partial<Record<Caller, Outcome>>;
}

const FORBIDDEN: Record<Exclude<Outcome, number | 'notFound'>, { code: string; detail: string }> = {
  platformKeyRequired: { code: 'platform_key_required', detail: 'Only the platform API key can do this' },
  tenantKeyRequired: { code: 'tenant_key_required', detail: 'Only a tenant API key can do this' },
  tenantScopeRequired: { code: 'tenant_key_required', detail: 'The platform key manages tenants only; use a tenant or organization key' },
  memberTokenRequired: { code: 'member_token_required', detail: 'Only a console access token can do this' },
};

/** A member of the world's tenant, invited with the tenant key, to change or remove. */
async function newMember(w: World): Promise<string> {
  const response = await call(URL_OF(w), 'post', '/tenant/member', w.tenant.apiKey, { email: `${randomUUID()}@example.com`, role: 'viewer' }).expect(201);
  return response.body.id;
}

const fixed = (path: (world: World) => string) => async (world: World) => ({ path: path(world) });
const name = (caller: Caller) => ({ name: `by ${caller}` });

/** Outcomes of an endpoint of one organization, reached by the tenant key or that organization's key. */
const organizationScoped = (success: number): Partial<Record<Caller, Outcome>> => ({
  platform: 'tenantScopeRequired',
  tenant: success,
  org: success,
  siblingOrg: 'notFound',
  otherTenant: 'notFound',
});

/** Outcomes of a tenant-key-only endpoint without an id: another tenant's key works on its own tenant. */
const tenantOnly = (success: number): Partial<Record<Caller, Outcome>> => ({
  platform: 'tenantKeyRequired',
  tenant: success,
  org: 'tenantKeyRequired',
  siblingOrg: 'tenantKeyRequired',
  otherTenant: success,
});

const ENDPOINTS: Endpoint[] = [
  // tenants
  {
    method: 'post',
    route: '/tenant',
    target: fixed(() => '/tenant'),
    body: (caller) => ({ ...name(caller), plan: 'pro' }),
    outcomes: { platform: 201, tenant: 'platformKeyRequired', org: 'platformKeyRequired', siblingOrg: 'platformKeyRequired', otherTenant: 'platformKeyRequired' },
  },
  { method: 'get', route: '/tenant', target: fixed(() => '/tenant'), outcomes: { platform: 200, tenant: 200, org: 200, siblingOrg: 200, otherTenant: 200 } },
  {
    method: 'get',
    route: '/tenant/{tenantId}',
    target: fixed((w) => `/tenant/${w.tenant.tenantId}`),
    outcomes: { platform: 200, tenant: 200, org: 200, siblingOrg: 200, otherTenant: 'notFound' },
  },
  {
    method: 'post',
    route: '/tenant/{tenantId}',
    target: fixed((w) => `/tenant/${w.tenant.tenantId}`),
    body: name,
    outcomes: { platform: 200, tenant: 200, org: 'tenantKeyRequired', siblingOrg: 'tenantKeyRequired', otherTenant: 'notFound' },
  },
  { method: 'get', route: '/tenant/usage', target: fixed(() => '/tenant/usage'), outcomes: { platform: 'tenantScopeRequired', tenant: 200, org: 200, siblingOrg: 200, otherTenant: 200 } },
  {
    method: 'get',
    route: '/tenant/usage/history',
    target: fixed(() => '/tenant/usage/history'),
    outcomes: { platform: 'tenantScopeRequired', tenant: 200, org: 200, siblingOrg: 200, otherTenant: 200 },
  },
  // members and the audit log
  { method: 'get', route: '/tenant/member', target: fixed(() => '/tenant/member'), outcomes: tenantOnly(200) },
  { method: 'post', route: '/tenant/member', target: fixed(() => '/tenant/member'), body: () => ({ email: `${randomUUID()}@example.com`, role: 'admin' }), outcomes: tenantOnly(201) },
  {
    method: 'post',
    route: '/tenant/member/{memberId}',
    target: async (w) => ({ path: `/tenant/member/${await newMember(w)}` }),
    body: () => ({ role: 'admin' }),
    outcomes: { ...tenantOnly(200), otherTenant: 'notFound' },
  },
  {
    method: 'delete',
    route: '/tenant/member/{memberId}',
    target: async (w) => ({ path: `/tenant/member/${await newMember(w)}` }),
    outcomes: { ...tenantOnly(204), otherTenant: 'notFound' },
  },
  { method: 'get', route: '/tenant/audit_event', target: fixed(() => '/tenant/audit_event'), outcomes: tenantOnly(200) },
  {
    method: 'get',
    route: '/me',
    target: fixed(() => '/me'),
    outcomes: { platform: 'memberTokenRequired', tenant: 'memberTokenRequired', org: 'memberTokenRequired', siblingOrg: 'memberTokenRequired', otherTenant: 'memberTokenRequired' },
  },
  // tenant API keys
  { method: 'get', route: '/tenant/api_key', target: fixed(() => '/tenant/api_key'), outcomes: tenantOnly(200) },
  { method: 'post', route: '/tenant/api_key', target: fixed(() => '/tenant/api_key'), body: name, outcomes: tenantOnly(201) },
  {
    method: 'delete',
    route: '/tenant/api_key/{keyId}',
    target: async (w) => {
      const response = await call(URL_OF(w), 'post', '/tenant/api_key', w.tenant.apiKey, { name: 'To revoke' }).expect(201);
      return { path: `/tenant/api_key/${response.body.id}` };
    },
    outcomes: { ...tenantOnly(204), otherTenant: 'notFound' },
  },
  // organizations
  { method: 'get', route: '/organization', target: fixed(() => '/organization'), outcomes: tenantOnly(200) },
  { method: 'post', route: '/organization', target: fixed(() => '/organization'), body: name, outcomes: tenantOnly(201) },
  { method: 'get', route: '/organization/{id}', target: fixed((w) => `/organization/${w.org.organizationId}`), outcomes: organizationScoped(200) },
  { method: 'post', route: '/organization/{id}', target: fixed((w) => `/organization/${w.org.organizationId}`), body: name, outcomes: organizationScoped(200) },
  {
    method: 'delete',
    route: '/organization/{id}',
    target: async (w) => {
      const fresh = await createOrganization(URL_OF(w), w.tenant, { name: 'To delete' });
      const { key } = await createOrganizationKey(URL_OF(w), fresh);
      return { path: `/organization/${fresh.organizationId}`, orgKey: key };
    },
    outcomes: organizationScoped(204),
  },
  // users
  { method: 'get', route: '/organization/{organizationId}/user', target: fixed((w) => `/organization/${w.org.organizationId}/user`), outcomes: organizationScoped(200) },
  {
    method: 'post',
    route: '/organization/{organizationId}/user',
    target: fixed((w) => `/organization/${w.org.organizationId}/user`),
    body: () => ({ email: `${randomUUID()}@example.com` }),
    outcomes: organizationScoped(201),
  },
  { method: 'get', route: '/organization/{organizationId}/user/{userId}', target: fixed((w) => `/organization/${w.org.organizationId}/user/${w.userId}`), outcomes: organizationScoped(200) },
  {
    method: 'post',
    route: '/organization/{organizationId}/user/{userId}',
    target: fixed((w) => `/organization/${w.org.organizationId}/user/${w.userId}`),
    body: name,
    outcomes: organizationScoped(200),
  },
  {
    method: 'delete',
    route: '/organization/{organizationId}/user/{userId}',
    target: async (w) => {
      const user = await createUser(URL_OF(w), { ...w.org, apiKey: w.tenant.apiKey }, { email: `${randomUUID()}@example.com` });
      return { path: `/organization/${w.org.organizationId}/user/${user.id}` };
    },
    outcomes: organizationScoped(204),
  },
  // applications
  { method: 'get', route: '/organization/{organizationId}/application', target: fixed((w) => `/organization/${w.org.organizationId}/application`), outcomes: organizationScoped(200) },
  {
    method: 'post',
    route: '/organization/{organizationId}/application',
    target: fixed((w) => `/organization/${w.org.organizationId}/application`),
    body: (caller) => ({ ...name(caller), type: 'web' }),
    outcomes: organizationScoped(201),
  },
  {
    method: 'get',
    route: '/organization/{organizationId}/application/{applicationId}',
    target: fixed((w) => `/organization/${w.org.organizationId}/application/${w.appId}`),
    outcomes: organizationScoped(200),
  },
  {
    method: 'post',
    route: '/organization/{organizationId}/application/{applicationId}',
    target: fixed((w) => `/organization/${w.org.organizationId}/application/${w.appId}`),
    body: name,
    outcomes: organizationScoped(200),
  },
  {
    method: 'post',
    route: '/organization/{organizationId}/application/{applicationId}/rotate_secret',
    target: fixed((w) => `/organization/${w.org.organizationId}/application/${w.appId}/rotate_secret`),
    outcomes: organizationScoped(200),
  },
  {
    method: 'delete',
    route: '/organization/{organizationId}/application/{applicationId}',
    target: async (w) => {
      const app = await createApplication(URL_OF(w), { ...w.org, apiKey: w.tenant.apiKey }, { type: 'ios' });
      return { path: `/organization/${w.org.organizationId}/application/${app.applicationId}` };
    },
    outcomes: organizationScoped(204),
  },
  // login activity
  { method: 'get', route: '/organization/{organizationId}/login_attempt', target: fixed((w) => `/organization/${w.org.organizationId}/login_attempt`), outcomes: organizationScoped(200) },
  // organization API keys
  { method: 'get', route: '/organization/{organizationId}/api_key', target: fixed((w) => `/organization/${w.org.organizationId}/api_key`), outcomes: organizationScoped(200) },
  { method: 'post', route: '/organization/{organizationId}/api_key', target: fixed((w) => `/organization/${w.org.organizationId}/api_key`), body: name, outcomes: organizationScoped(201) },
  {
    method: 'delete',
    route: '/organization/{organizationId}/api_key/{keyId}',
    target: async (w) => {
      const key = await createOrganizationKey(URL_OF(w), { ...w.org, apiKey: w.tenant.apiKey }, 'To revoke');
      return { path: `/organization/${w.org.organizationId}/api_key/${key.id}` };
    },
    outcomes: organizationScoped(204),
  },
];

const AUTHENTICATED: Caller[] = ['platform', 'tenant', 'org', 'siblingOrg', 'otherTenant'];
const UNAUTHENTICATED: Caller[] = ['none', 'malformed', 'unknown', 'revokedTenantKey', 'revokedOrgKey'];

/** Routes that need no key: health and the API documentation. */
const PUBLIC_ROUTES = ['GET /api/health', 'GET /api/metrics', 'GET /api/v2/openapi.json', 'GET /api/v2/openapi.yaml'];

let api: RunningApp;
const URL_OF = (_: World) => api.url;

describe('access matrix of the management API', () => {
  let world: World;

  beforeAll(async () => {
    api = await startUnthrottledManagementApi();
    const tenant = await createTenant(api.url);
    const org = await createOrganization(api.url, tenant, { name: 'Org' });
    const sibling = await createOrganization(api.url, tenant, { name: 'Sibling' });
    const orgKey = await createOrganizationKey(api.url, org);
    const siblingKey = await createOrganizationKey(api.url, sibling);
    const other = await createTenant(api.url);
    await createOrganization(api.url, other);
    const user = await createUser(api.url, org, { email: 'matrix@example.com', name: 'Matrix user' });
    const app = await createApplication(api.url, org, { name: 'Matrix app', type: 'web' });

    const revokedTenant = await call(api.url, 'post', '/tenant/api_key', tenant.apiKey, { name: 'Revoked' }).expect(201);
    await call(api.url, 'get', '/tenant', revokedTenant.body.key).expect(200);
    await call(api.url, 'delete', `/tenant/api_key/${revokedTenant.body.id}`, tenant.apiKey).expect(204);
    const revokedOrg = await createOrganizationKey(api.url, org, 'Revoked');
    await call(api.url, 'get', `/organization/${org.organizationId}`, revokedOrg.key).expect(200);
    await call(api.url, 'delete', `/organization/${org.organizationId}/api_key/${revokedOrg.id}`, tenant.apiKey).expect(204);

    world = {
      tenant,
      org: { ...org, orgKey: orgKey.key },
      sibling: { ...sibling, orgKey: siblingKey.key },
      other,
      userId: user.id,
      appId: app.applicationId,
      keys: {
        platform: PLATFORM_KEY,
        tenant: tenant.apiKey,
        org: orgKey.key,
        siblingOrg: siblingKey.key,
        otherTenant: other.apiKey,
        none: null,
        malformed: 'not-an-api-key',
        unknown: unknownApiKey(),
        revokedTenantKey: revokedTenant.body.key,
        revokedOrgKey: revokedOrg.key,
      },
    };
  });
  afterAll(() => api.close());

  it('covers every API-key route the app serves', () => {
    const covered = ENDPOINTS.map((endpoint) => `${endpoint.method.toUpperCase()} /api/v2${endpoint.route.replace(/\{(\w+)\}/g, ':$1')}`);
    expect(new Set(covered).size).toBe(covered.length);
    const served = registeredRoutes(api).filter((route) => !PUBLIC_ROUTES.includes(route));
    expect([...covered].sort()).toEqual([...served].sort());
  });

  describe.each(ENDPOINTS)('$method $route', (endpoint) => {
    it.each(AUTHENTICATED)('%s', async (caller) => {
      const { path, orgKey } = await endpoint.target(world);
      const key = caller === 'org' && orgKey ? orgKey : world.keys[caller]!;
      const body = endpoint.body?.(caller);
      const outcome = endpoint.outcomes[caller];
      if (typeof outcome === 'number') {
        const response = await call(api.url, endpoint.method, path, key, body);
        expect([response.status, response.headers['content-type'] ?? null]).toEqual([outcome, outcome === 204 ? null : 'application/json; charset=utf-8']);
      } else if (outcome === 'notFound') {
        await expectSameAsNonexistent(api.url, endpoint.method, path, key, body);
      } else {
        expectProblem(await call(api.url, endpoint.method, path, key, body), { status: 403, ...FORBIDDEN[outcome!] });
      }
    });

    it.each(UNAUTHENTICATED)('%s', async (caller) => {
      const { path } = await endpoint.target(world);
      const response = await call(api.url, endpoint.method, path, world.keys[caller], endpoint.body?.(caller));
      if (caller === 'none') expectMissingApiKey(response);
      else expectInvalidApiKey(response);
    });
  });

  it('callers that were refused changed nothing', async () => {
    const refused = ['platform', 'siblingOrg', 'otherTenant', 'revokedTenantKey', 'revokedOrgKey', 'unknown', 'malformed', 'none'].map((caller) => `by ${caller}`);
    const { tenant, org, userId, appId } = world;
    const names = [
      (await call(api.url, 'get', `/organization/${org.organizationId}`, tenant.apiKey).expect(200)).body.name,
      (await call(api.url, 'get', `/organization/${org.organizationId}/user/${userId}`, tenant.apiKey).expect(200)).body.name,
      (await call(api.url, 'get', `/organization/${org.organizationId}/application/${appId}`, tenant.apiKey).expect(200)).body.name,
    ];
    expect(names).toEqual(['by org', 'by org', 'by org']);
    const tenantName = (await call(api.url, 'get', `/tenant/${tenant.tenantId}`, tenant.apiKey).expect(200)).body.name;
    expect(refused).not.toContain(tenantName);
    const organizations = (await call(api.url, 'get', '/organization', tenant.apiKey).query({ limit: '100' }).expect(200)).body.data.map((item: { name: string }) => item.name);
    expect(organizations.filter((item: string) => refused.includes(item))).toEqual([]);
  });

  it('a key is checked before the input: a bad body without a key is 401, not 400', async () => {
    expectMissingApiKey(await call(api.url, 'post', '/organization', null, { name: 123, unknown: true }));
    expectInvalidApiKey(await call(api.url, 'get', '/organization/not-a-uuid', 'not-an-api-key'));
  });

  it.each([
    ['Basic credentials', 'Basic dXNlcjpwYXNz', 'missing'],
    ['a bare key without scheme', null, 'missing'],
    ['an empty Bearer', 'Bearer', 'invalid'],
    ['Bearer with only spaces', 'Bearer    ', 'invalid'],
    ['two tokens', 'Bearer sk_a sk_b', 'invalid'],
    ['a lower-case scheme with an unknown key', `bearer ${'sk_'}${'x'.repeat(43)}`, 'invalid'],
    ['a key with a trailing character', null, 'invalid'],
    ['the platform key with a trailing character', `Bearer ${PLATFORM_KEY}x`, 'invalid'],
  ])('%s is 401', async (_, header, kind) => {
    const value = header ?? (kind === 'missing' ? world.keys.tenant! : `Bearer ${world.keys.tenant}x`);
    const response = await call(api.url, 'get', '/organization', null).set('Authorization', value);
    if (kind === 'missing') expectMissingApiKey(response);
    else expectInvalidApiKey(response);
  });

  it('the scheme is case-insensitive', async () => {
    await call(api.url, 'get', '/organization', null).set('Authorization', `bearer ${world.keys.tenant}`).expect(200);
    await call(api.url, 'get', '/organization', null).set('Authorization', `BEARER   ${world.keys.tenant}  `).expect(200);
  });

  it('a key in the query string is not a key', async () => {
    expectMissingApiKey(await call(api.url, 'get', `/organization?access_token=${world.keys.tenant}`, null));
  });
});
