import { Role } from '@sesame/common';
import { AccessRow, accessRows, Caller, MATRIX_CALLERS, OpenApiDocument } from '../../apps/management-api/src/access/access-matrix';
import { RunningApp } from '../support/apps';
import { createApplication, createOrganization, createTenant } from '../support/fixtures';
import {
  call,
  describeAnswer,
  expectedAnswer,
  expectEveryRouteRuled,
  expectInvalidApiKey,
  expectMissingApiKey,
  INVALID_API_KEY_CHALLENGE,
  PLATFORM_KEY,
  Probe,
  probe,
  ProbeWorld,
  routeOf,
  servedOpenApi,
  startUnthrottledManagementApi,
  successStatus,
  unknownApiKey,
  writtenLabels,
} from '../support/management';

/**
 * API keys on every route of the management API, against the route's own rule: the
 * `x-sesame-access` of the served OpenAPI document, which AccessGuard enforces and docs/access.md
 * shows. For every route and every kind of key:
 * - a key the rule admits succeeds; any other gets the guard's exact 403 (the kind of key or the
 *   role it lacks);
 * - a key of a sibling organization on that organization's routes, and a key of another tenant on
 *   any route naming an id, get 404, exactly like random ids;
 * - no key, a malformed, unknown or revoked key gets 401 with a Bearer challenge.
 */

interface KeyCaller {
  label: string;
  caller: Caller;
  /** The key that makes the probe's request. */
  key: (probe: Probe) => Promise<string>;
}

const UNAUTHENTICATED = ['no key', 'a malformed key', 'an unknown key', 'a revoked tenant key', 'a revoked organization key'] as const;

let api: RunningApp;
let document: OpenApiDocument;
let rows: AccessRow[];
let world: ProbeWorld;
const keys: Record<string, string | null> = {};

async function organizationKey(organizationId: string, role: Role, name = `Org ${role}`): Promise<{ id: string; key: string }> {
  const response = await call(api.url, 'post', `/organization/${organizationId}/api_key`, world.apiKey, { name, role }).expect(201);
  return { id: response.body.id, key: response.body.key };
}

/** The organization key of this role of the organization the probe acts in (the world's, or one made for the probe). */
async function keyInOrganization(probe: Probe, role: Role): Promise<string> {
  return probe.organizationId ? (await organizationKey(probe.organizationId, role)).key : keys[`organization ${role}`]!;
}

/** Every key column of the access matrix, then keys out of reach: of a sibling organization, of another tenant. */
const CALLERS: KeyCaller[] = [
  ...MATRIX_CALLERS.filter(({ caller }) => caller.kind !== 'member').map(({ heading, caller }) => ({
    label: heading,
    caller,
    key: async (probe: Probe) => (caller.kind === 'organization' ? keyInOrganization(probe, caller.role!) : keys[heading]!),
  })),
  {
    label: 'sibling organization key admin',
    caller: { kind: 'organization', role: 'admin', reach: 'otherOrganization' },
    key: async () => keys['sibling admin']!,
  },
  {
    label: 'sibling organization key viewer',
    caller: { kind: 'organization', role: 'viewer', reach: 'otherOrganization' },
    key: async () => keys['sibling viewer']!,
  },
  {
    label: 'owner key of another tenant',
    caller: { kind: 'tenant', role: 'owner', reach: 'otherTenant' },
    key: async () => keys['other tenant']!,
  },
];

const routeLabel = (row: AccessRow) => `${routeOf(row)}${row.query ? `?${row.query}` : ''}`;

describe('API keys on every route, by its access rule', () => {
  beforeAll(async () => {
    api = await startUnthrottledManagementApi();
    document = await servedOpenApi(api.url);
    // Throws for a route that has no rule and is neither public nor the person route.
    rows = accessRows(document);

    const tenant = await createTenant(api.url);
    const organization = await createOrganization(api.url, tenant, { name: 'Org' });
    const sibling = await createOrganization(api.url, tenant, { name: 'Sibling' });
    const user = (
      await call(api.url, 'post', `/organization/${organization.organizationId}/user`, tenant.apiKey, {
        email: 'matrix@example.com',
        name: 'Matrix user',
      }).expect(201)
    ).body;
    const application = await createApplication(api.url, organization, { name: 'Matrix app', type: 'web' });
    world = {
      url: api.url,
      tenantId: tenant.tenantId,
      apiKey: tenant.apiKey,
      organizationId: organization.organizationId,
      userId: user.id,
      applicationId: application.applicationId,
    };

    const tenantKey = async (role: Role) =>
      (await call(api.url, 'post', '/tenant/api_key', tenant.apiKey, { name: `Tenant ${role}`, role }).expect(201)).body;
    Object.assign(keys, {
      'platform key': PLATFORM_KEY,
      'tenant key owner': tenant.apiKey,
      'tenant key admin': (await tenantKey('admin')).key,
      'tenant key viewer': (await tenantKey('viewer')).key,
      'organization admin': (await organizationKey(organization.organizationId, 'admin')).key,
      'organization viewer': (await organizationKey(organization.organizationId, 'viewer')).key,
      'sibling admin': (await organizationKey(sibling.organizationId, 'admin')).key,
      'sibling viewer': (await organizationKey(sibling.organizationId, 'viewer')).key,
      'other tenant': (await createTenant(api.url)).apiKey,
    });

    const revokedTenant = await tenantKey('admin');
    await call(api.url, 'get', '/tenant', revokedTenant.key).expect(200);
    await call(api.url, 'delete', `/tenant/api_key/${revokedTenant.id}`, tenant.apiKey).expect(204);
    const revokedOrganization = await organizationKey(organization.organizationId, 'admin', 'Revoked');
    await call(api.url, 'get', `/organization/${organization.organizationId}`, revokedOrganization.key).expect(200);
    await call(api.url, 'delete', `/organization/${organization.organizationId}/api_key/${revokedOrganization.id}`, tenant.apiKey).expect(
      204,
    );
    Object.assign(keys, {
      'no key': null,
      'a malformed key': 'not-an-api-key',
      'an unknown key': unknownApiKey(),
      'a revoked tenant key': revokedTenant.key,
      'a revoked organization key': revokedOrganization.key,
    });
  });
  afterAll(() => api.close());

  it('every route the app serves has a rule, but health (public) and the person route; each has a probe', () => {
    expectEveryRouteRuled(api, rows);
  });

  it.each(CALLERS.map((caller) => [caller.label, caller]))(
    '%s gets on every route what its rule says',
    async (_, { label, caller, key }) => {
      const answers: string[] = [];
      const expected: string[] = [];
      for (const row of rows) {
        const request = await probe(row, world, label);
        const credential = await key(request);
        const send = (path: string) => call(api.url, request.method, path, credential, request.body);
        answers.push(`${routeLabel(row)} → ${await describeAnswer(await send(request.path), send)}`);
        expected.push(`${routeLabel(row)} → ${expectedAnswer(document, row, caller, api.config.members.reauthSeconds)}`);
      }
      expect(answers).toEqual(expected);
    },
    300_000,
  );

  it.each(UNAUTHENTICATED)(
    '%s gets 401 with a Bearer challenge on every route but health',
    async (caller) => {
      const answers: string[] = [];
      const expected: string[] = [];
      const missing = caller === 'no key';
      for (const row of rows) {
        const request = await probe(row, world, caller);
        const response = await call(api.url, request.method, request.path, keys[caller], request.body);
        answers.push(`${routeLabel(row)} → ${response.status} ${response.body.code ?? '-'} ${response.headers['www-authenticate'] ?? '-'}`);
        const answer =
          row.access.kind === 'public'
            ? `${successStatus(document, row)} - -`
            : missing
              ? '401 missing_api_key Bearer realm="sesame"'
              : `401 invalid_api_key ${INVALID_API_KEY_CHALLENGE}`;
        expected.push(`${routeLabel(row)} → ${answer}`);
      }
      expect(answers).toEqual(expected);
    },
    300_000,
  );

  it('callers that were refused changed nothing; those admitted changed what they asked', async () => {
    const { found, expected } = await writtenLabels(world, rows, [...CALLERS, ...UNAUTHENTICATED.map((label) => ({ label }))]);
    expect(found).toEqual(expected);
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
    const value = header ?? (kind === 'missing' ? world.apiKey : `Bearer ${world.apiKey}x`);
    const response = await call(api.url, 'get', '/organization', null).set('Authorization', value);
    if (kind === 'missing') expectMissingApiKey(response);
    else expectInvalidApiKey(response);
  });

  it('the scheme is case-insensitive', async () => {
    await call(api.url, 'get', '/organization', null).set('Authorization', `bearer ${world.apiKey}`).expect(200);
    await call(api.url, 'get', '/organization', null).set('Authorization', `BEARER   ${world.apiKey}  `).expect(200);
  });

  it('a key in the query string is not a key', async () => {
    expectMissingApiKey(await call(api.url, 'get', `/organization?access_token=${world.apiKey}`, null));
  });
});
