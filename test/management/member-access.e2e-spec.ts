import { randomUUID } from 'node:crypto';
import request, { Response } from 'supertest';
import { ManualClock } from '@sesame/common';
import { RunningApp } from '../support/apps';
import { CONSOLE_SETUP_TIMEOUT_MS, ConsoleStack, signInThroughConsole, startConsoleStack } from '../support/console';
import { createApplication, createOrganization, OrganizationFixture } from '../support/fixtures';
import { loginByLink, uniqueEmail } from '../support/login';
import { call, createUser, expectProblem, PLATFORM_KEY, registeredRoutes, startUnthrottledManagementApi, UNTHROTTLED_ENV, V2, withRandomIds } from '../support/management';
import { SmtpSink } from '../support/smtp-sink';
import { exchangeWeb, WEB_REDIRECT_URI } from '../support/tokens';

/**
 * Members on the management API: a console access token and `Sesame-Tenant`, on every route.
 * - owner, admin and viewer get what their role allows, and 403 `insufficient_role` beyond it;
 * - someone signed in who is no member of the tenant gets 403 `not_a_member`;
 * - a member of another tenant reaches only their own tenant: another's objects are 404, exactly like ids that do not exist;
 * - a token of another application, or a revoked one, is 401 `invalid_member_token`;
 * - a member token without `Sesame-Tenant` is 400, with another tenant's id 403.
 */

type Caller = 'owner' | 'admin' | 'viewer' | 'nonMember' | 'otherTenantMember' | 'otherApp' | 'revoked' | 'missingTenant' | 'wrongTenant';
type Method = 'get' | 'post' | 'delete';
type Role = 'viewer' | 'admin' | 'owner' | 'none' | 'person';

interface World {
  tenantId: string;
  apiKey: string;
  org: OrganizationFixture;
  otherTenantId: string;
  userId: string;
  appId: string;
  clientSecret: string;
  tokens: Record<Caller, string>;
}

interface Endpoint {
  method: Method;
  route: string;
  /** The weakest role that may call it; `none`: no member may; `person`: any signed-in person, without Sesame-Tenant. */
  role: Role;
  status: number;
  /** Whether a member of another tenant reaches its own tenant's version (no id of this tenant in the path). */
  ownTenantAlike?: boolean;
  target: (world: World) => Promise<string>;
  body?: (caller: Caller) => unknown;
}

const fixed = (path: (world: World) => string) => async (world: World) => path(world);
const name = (caller: Caller) => ({ name: `by ${caller}` });
const org = (w: World) => `/organization/${w.org.organizationId}`;

let stack: ConsoleStack;
const api = () => stack.origin;

async function newMember(w: World): Promise<string> {
  return (await call(api(), 'post', '/tenant/member', w.apiKey, { email: `${randomUUID()}@example.com`, role: 'viewer' }).expect(201)).body.id;
}

const ENDPOINTS: Endpoint[] = [
  { method: 'post', route: '/tenant', role: 'none', status: 201, target: fixed(() => '/tenant'), body: (caller) => ({ ...name(caller), plan: 'pro' }) },
  { method: 'get', route: '/tenant', role: 'viewer', status: 200, ownTenantAlike: true, target: fixed(() => '/tenant') },
  { method: 'get', route: '/tenant/{tenantId}', role: 'viewer', status: 200, target: fixed((w) => `/tenant/${w.tenantId}`) },
  { method: 'post', route: '/tenant/{tenantId}', role: 'admin', status: 200, target: fixed((w) => `/tenant/${w.tenantId}`), body: name },
  { method: 'get', route: '/tenant/usage', role: 'viewer', status: 200, ownTenantAlike: true, target: fixed(() => '/tenant/usage') },
  { method: 'get', route: '/tenant/usage/history', role: 'viewer', status: 200, ownTenantAlike: true, target: fixed(() => '/tenant/usage/history') },
  { method: 'get', route: '/tenant/api_key', role: 'viewer', status: 200, ownTenantAlike: true, target: fixed(() => '/tenant/api_key') },
  { method: 'post', route: '/tenant/api_key', role: 'admin', status: 201, ownTenantAlike: true, target: fixed(() => '/tenant/api_key'), body: name },
  {
    method: 'delete',
    route: '/tenant/api_key/{keyId}',
    role: 'admin',
    status: 204,
    target: async (w) => `/tenant/api_key/${(await call(api(), 'post', '/tenant/api_key', w.apiKey, { name: 'To revoke' }).expect(201)).body.id}`,
  },
  { method: 'get', route: '/tenant/member', role: 'viewer', status: 200, ownTenantAlike: true, target: fixed(() => '/tenant/member') },
  { method: 'post', route: '/tenant/member', role: 'owner', status: 201, ownTenantAlike: true, target: fixed(() => '/tenant/member'), body: () => ({ email: `${randomUUID()}@example.com`, role: 'viewer' }) },
  { method: 'post', route: '/tenant/member/{memberId}', role: 'owner', status: 200, target: async (w) => `/tenant/member/${await newMember(w)}`, body: () => ({ role: 'admin' }) },
  { method: 'delete', route: '/tenant/member/{memberId}', role: 'owner', status: 204, target: async (w) => `/tenant/member/${await newMember(w)}` },
  { method: 'get', route: '/tenant/audit_event', role: 'admin', status: 200, ownTenantAlike: true, target: fixed(() => '/tenant/audit_event') },
  { method: 'get', route: '/me', role: 'person', status: 200, target: fixed(() => '/me') },
  { method: 'get', route: '/organization', role: 'viewer', status: 200, ownTenantAlike: true, target: fixed(() => '/organization') },
  { method: 'post', route: '/organization', role: 'admin', status: 201, ownTenantAlike: true, target: fixed(() => '/organization'), body: name },
  { method: 'get', route: '/organization/{id}', role: 'viewer', status: 200, target: fixed(org) },
  { method: 'post', route: '/organization/{id}', role: 'admin', status: 200, target: fixed(org), body: name },
  {
    method: 'delete',
    route: '/organization/{id}',
    role: 'admin',
    status: 204,
    target: async (w) => `/organization/${(await createOrganization(api(), { tenantId: w.tenantId, apiKey: w.apiKey }, { name: 'To delete' })).organizationId}`,
  },
  { method: 'get', route: '/organization/{organizationId}/login_attempt', role: 'viewer', status: 200, target: fixed((w) => `${org(w)}/login_attempt`) },
  { method: 'get', route: '/organization/{organizationId}/user', role: 'viewer', status: 200, target: fixed((w) => `${org(w)}/user`) },
  { method: 'post', route: '/organization/{organizationId}/user', role: 'admin', status: 201, target: fixed((w) => `${org(w)}/user`), body: () => ({ email: `${randomUUID()}@example.com` }) },
  { method: 'get', route: '/organization/{organizationId}/user/{userId}', role: 'viewer', status: 200, target: fixed((w) => `${org(w)}/user/${w.userId}`) },
  { method: 'post', route: '/organization/{organizationId}/user/{userId}', role: 'admin', status: 200, target: fixed((w) => `${org(w)}/user/${w.userId}`), body: name },
  {
    method: 'delete',
    route: '/organization/{organizationId}/user/{userId}',
    role: 'admin',
    status: 204,
    target: async (w) => `${org(w)}/user/${(await createUser(api(), w.org, { email: `${randomUUID()}@example.com` })).id}`,
  },
  { method: 'get', route: '/organization/{organizationId}/application', role: 'viewer', status: 200, target: fixed((w) => `${org(w)}/application`) },
  {
    method: 'post',
    route: '/organization/{organizationId}/application',
    role: 'admin',
    status: 201,
    target: fixed((w) => `${org(w)}/application`),
    body: (caller) => ({ ...name(caller), type: 'web' }),
  },
  { method: 'get', route: '/organization/{organizationId}/application/{applicationId}', role: 'viewer', status: 200, target: fixed((w) => `${org(w)}/application/${w.appId}`) },
  { method: 'post', route: '/organization/{organizationId}/application/{applicationId}', role: 'admin', status: 200, target: fixed((w) => `${org(w)}/application/${w.appId}`), body: name },
  {
    method: 'post',
    route: '/organization/{organizationId}/application/{applicationId}/rotate_secret',
    role: 'admin',
    status: 200,
    target: async (w) => `${org(w)}/application/${(await createApplication(api(), w.org, { type: 'web' })).applicationId}/rotate_secret`,
  },
  {
    method: 'delete',
    route: '/organization/{organizationId}/application/{applicationId}',
    role: 'admin',
    status: 204,
    target: async (w) => `${org(w)}/application/${(await createApplication(api(), w.org, { type: 'ios' })).applicationId}`,
  },
  { method: 'get', route: '/organization/{organizationId}/api_key', role: 'viewer', status: 200, target: fixed((w) => `${org(w)}/api_key`) },
  { method: 'post', route: '/organization/{organizationId}/api_key', role: 'admin', status: 201, target: fixed((w) => `${org(w)}/api_key`), body: name },
  {
    method: 'delete',
    route: '/organization/{organizationId}/api_key/{keyId}',
    role: 'admin',
    status: 204,
    target: async (w) => `${org(w)}/api_key/${(await call(api(), 'post', `${org(w)}/api_key`, w.apiKey, { name: 'To revoke' }).expect(201)).body.id}`,
  },
];

const ROLE_RANK: Record<string, number> = { viewer: 0, admin: 1, owner: 2 };
const CALLERS: Caller[] = ['owner', 'admin', 'viewer', 'nonMember', 'otherTenantMember', 'otherApp', 'revoked', 'missingTenant', 'wrongTenant'];

/** A request with a member token and the caller's Sesame-Tenant header. */
function asMember(w: World, caller: Caller, method: Method, path: string, body?: unknown): request.Test {
  const test = call(api(), method, path, w.tokens[caller], body);
  if (caller === 'missingTenant') return test;
  return test.set('Sesame-Tenant', caller === 'otherTenantMember' || caller === 'wrongTenant' ? w.otherTenantId : w.tenantId);
}

function expectMemberProblem(response: Response, status: number, code: string): void {
  expect({ status: response.status, type: response.headers['content-type'], code: response.body.code }).toEqual({ status, type: 'application/problem+json; charset=utf-8', code });
}

describe('members on the management API (console access tokens)', () => {
  const smtp = new SmtpSink();
  let world: World;

  beforeAll(async () => {
    await smtp.start();
    stack = await startConsoleStack(smtp.url, { env: { ...UNTHROTTLED_ENV, API_KEY_CACHE_SECONDS: '0' } });
    const emails = Object.fromEntries(CALLERS.map((caller) => [caller, uniqueEmail(caller)])) as Record<Caller, string>;
    const created = await call(api(), 'post', '/tenant', PLATFORM_KEY, { name: 'Members tenant', plan: 'pro', ownerEmail: emails.owner }).expect(201);
    const tenant = { tenantId: created.body.tenant.id, apiKey: created.body.apiKey.key };
    const other = await call(api(), 'post', '/tenant', PLATFORM_KEY, { name: 'Other tenant', plan: 'pro', ownerEmail: emails.otherTenantMember }).expect(201);
    for (const [caller, role] of [['admin', 'admin'], ['viewer', 'viewer'], ['revoked', 'owner']] as const) {
      await call(api(), 'post', '/tenant/member', tenant.apiKey, { email: emails[caller], role }).expect(201);
    }
    const orgFixture = await createOrganization(api(), tenant, { name: 'Org' });
    const user = await createUser(api(), orgFixture, { email: 'matrix@example.com', name: 'Matrix user' });
    const app = await createApplication(api(), orgFixture, { name: 'Matrix app', type: 'web' });

    const tokens = {} as Record<Caller, string>;
    for (const caller of ['owner', 'admin', 'viewer', 'nonMember', 'otherTenantMember', 'revoked'] as const) {
      tokens[caller] = (await signInThroughConsole(stack, smtp, emails[caller])).accessToken!;
    }
    tokens.missingTenant = tokens.owner;
    tokens.wrongTenant = tokens.owner;
    const signedOut = await signInThroughConsole(stack, smtp, emails.revoked);
    tokens.revoked = signedOut.accessToken!;
    await signedOut.post('/console/api/sign_out').expect(204);
    // The owner signed in to the customer's application, not to the console: its token is not a member token.
    const callback = await loginByLink(stack.stack, smtp, app, { email: emails.owner, redirectUri: WEB_REDIRECT_URI });
    tokens.otherApp = (await exchangeWeb(stack.stack, app, { code: callback.searchParams.get('code')!, email: emails.owner, redirectUri: WEB_REDIRECT_URI })).access_token;

    world = { ...tenant, org: orgFixture, otherTenantId: other.body.tenant.id, userId: user.id, appId: app.applicationId, clientSecret: app.clientSecret!, tokens };
  }, CONSOLE_SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await stack?.close();
    await smtp.stop();
  });

  it('covers every route of the management API', () => {
    const covered = ENDPOINTS.map((endpoint) => `${endpoint.method.toUpperCase()} ${V2}${endpoint.route.replace(/\{(\w+)\}/g, ':$1')}`);
    const served = registeredRoutes(stack.stack.management).filter((route) => route.startsWith(`GET ${V2}/`) || route.startsWith(`POST ${V2}/`) || route.startsWith(`DELETE ${V2}/`));
    expect(covered.sort()).toEqual(served.filter((route) => !/openapi\.(json|yaml)$/.test(route)).sort());
  });

  describe.each(ENDPOINTS)('$method $route', (endpoint) => {
    it.each(CALLERS)('%s', async (caller) => {
      const path = await endpoint.target(world);
      const body = endpoint.body?.(caller);
      const response = await asMember(world, caller, endpoint.method, path, body);
      if (caller === 'otherApp' || caller === 'revoked') return expectMemberProblem(response, 401, 'invalid_member_token');
      if (endpoint.role === 'person') return expect(response.status).toBe(200);
      if (caller === 'missingTenant') return expectMemberProblem(response, 400, 'tenant_header_required');
      if (caller === 'nonMember' || caller === 'wrongTenant') return expectMemberProblem(response, 403, 'not_a_member');
      if (endpoint.role === 'none') return expectMemberProblem(response, 403, 'member_not_allowed');
      const role = caller === 'otherTenantMember' ? 'owner' : caller;
      if (ROLE_RANK[role] < ROLE_RANK[endpoint.role]) return expectMemberProblem(response, 403, 'insufficient_role');
      if (caller === 'otherTenantMember' && !endpoint.ownTenantAlike) {
        // Outside their reach: exactly like an id that does not exist.
        const missing = await asMember(world, caller, endpoint.method, withRandomIds(path), body);
        expect(response.status).toBe(404);
        expect({ ...response.body, instance: undefined }).toEqual({ ...missing.body, instance: undefined });
        return;
      }
      expect([response.status, response.headers['content-type'] ?? null]).toEqual([endpoint.status, endpoint.status === 204 ? null : 'application/json; charset=utf-8']);
    });
  });

  it('GET /v2/me names the person and their tenants; an API key is refused', async () => {
    const me = await call(api(), 'get', '/me', world.tokens.owner).expect(200);
    expect(me.body).toEqual({ email: expect.stringMatching(/^owner-/), memberships: [{ memberId: expect.any(String), tenantId: world.tenantId, tenantName: expect.any(String), plan: 'pro', role: 'owner' }] });
    expect((await call(api(), 'get', '/me', world.tokens.nonMember).expect(200)).body.memberships).toEqual([]);
    expectProblem(await call(api(), 'get', '/me', world.apiKey), { status: 403, code: 'member_token_required', detail: 'Only a console access token can do this' });
  });

  it('a viewer never receives a secret: not on any page it may read', async () => {
    const secrets = [world.clientSecret, world.apiKey];
    for (const endpoint of ENDPOINTS.filter((candidate) => candidate.method === 'get' && candidate.role === 'viewer')) {
      const response = await asMember(world, 'viewer', 'get', await endpoint.target(world)).expect(200);
      for (const secret of secrets) expect([endpoint.route, JSON.stringify(response.body).includes(secret)]).toEqual([endpoint.route, false]);
    }
    const application = await asMember(world, 'viewer', 'get', `${org(world)}/application/${world.appId}`).expect(200);
    expect(application.body).toEqual(expect.objectContaining({ type: 'web', clientSecret: null }));
    const asAdmin = await asMember(world, 'admin', 'get', `${org(world)}/application/${world.appId}`).expect(200);
    expect(asAdmin.body.clientSecret).toMatch(/^cs_/);
  });

  it('callers that were refused changed nothing', async () => {
    const refused = ['viewer', 'nonMember', 'otherTenantMember', 'otherApp', 'revoked', 'missingTenant', 'wrongTenant'].map((caller) => `by ${caller}`);
    const names = [
      (await call(api(), 'get', org(world), world.apiKey).expect(200)).body.name,
      (await call(api(), 'get', `${org(world)}/user/${world.userId}`, world.apiKey).expect(200)).body.name,
      (await call(api(), 'get', `${org(world)}/application/${world.appId}`, world.apiKey).expect(200)).body.name,
      (await call(api(), 'get', `/tenant/${world.tenantId}`, world.apiKey).expect(200)).body.name,
    ];
    for (const value of names) expect(refused).not.toContain(value);
    const organizations = (await call(api(), 'get', '/organization', world.apiKey).query({ limit: '100' }).expect(200)).body.data.map((item: { name: string }) => item.name);
    expect(organizations.filter((item: string) => refused.includes(item))).toEqual([]);
  });

  describe('another instance caches member lookups for API_KEY_CACHE_SECONDS, like API keys', () => {
    const clock = new ManualClock();
    let second: RunningApp;

    beforeAll(async () => {
      second = await startUnthrottledManagementApi({ clock, env: { API_KEY_CACHE_SECONDS: '5' } });
    });
    afterAll(() => second?.close());

    const asOwner = (token: string) => request(second.url).get('/api/v2/tenant/member').set('Authorization', `Bearer ${token}`).set('Sesame-Tenant', world.tenantId);

    it('a revoked token and a removed member keep working there at most that long', async () => {
      const email = uniqueEmail('cached');
      const member = await call(api(), 'post', '/tenant/member', world.apiKey, { email, role: 'admin' }).expect(201);
      const browser = await signInThroughConsole(stack, smtp, email);
      const token = browser.accessToken!;
      await asOwner(token).expect(200);

      await call(api(), 'delete', `/tenant/member/${member.body.id}`, world.apiKey).expect(204);
      await asOwner(token).expect(200);
      clock.advance(6);
      expect((await asOwner(token).expect(403)).body.code).toBe('not_a_member');

      await browser.post('/console/api/sign_out').expect(204);
      await request(second.url).get('/api/v2/me').set('Authorization', `Bearer ${token}`).expect(200);
      clock.advance(6);
      expect((await request(second.url).get('/api/v2/me').set('Authorization', `Bearer ${token}`).expect(401)).body.code).toBe('invalid_member_token');
    });
  });
});
