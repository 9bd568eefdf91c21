import { randomUUID } from 'node:crypto';
import { RunningApp } from '../support/apps';
import { createApplication, createOrganization, createTenant, OrganizationFixture, TenantFixture } from '../support/fixtures';
import { call, expectProblem, startUnthrottledManagementApi, validationProblem } from '../support/management';

/**
 * API keys carry a role, as members do: the first key of a tenant is an owner; a key is created
 * with a role no higher than its creator's (admin by default); a viewer key reads everything but
 * secrets and changes nothing; an admin key cannot manage members, nor give out the owner role.
 * Reading a client secret is asked for (`include=secret`) and written to the audit log.
 */
describe('roles of API keys', () => {
  let api: RunningApp;
  let tenant: TenantFixture;
  let organization: OrganizationFixture;
  let appId: string;
  let keys: { admin: string; viewer: string; orgAdmin: string; orgViewer: string };

  const createKey = async (creator: string, body: Record<string, unknown>, path = '/tenant/api_key') =>
    (await call(api.url, 'post', path, creator, { name: `key ${randomUUID()}`, ...body }).expect(201)).body as {
      id: string;
      key: string;
      role: string;
    };
  const orgKeys = () => `/organization/${organization.organizationId}/api_key`;
  const insufficient = (detail: string) => ({ status: 403, code: 'insufficient_role', detail });

  beforeAll(async () => {
    api = await startUnthrottledManagementApi();
    tenant = await createTenant(api.url, 'pro');
    organization = await createOrganization(api.url, tenant);
    appId = (await createApplication(api.url, organization, { type: 'web' })).applicationId;
    keys = {
      admin: (await createKey(tenant.apiKey, { role: 'admin' })).key,
      viewer: (await createKey(tenant.apiKey, { role: 'viewer' })).key,
      orgAdmin: (await createKey(tenant.apiKey, { role: 'admin' }, orgKeys())).key,
      orgViewer: (await createKey(tenant.apiKey, { role: 'viewer' }, orgKeys())).key,
    };
  });
  afterAll(() => api.close());

  it('the first key of a tenant is an owner; a key made without a role is an admin, or its creator’s role where that is lower', async () => {
    const list = await call(api.url, 'get', '/tenant/api_key', tenant.apiKey).expect(200);
    expect(list.body.data[0]).toMatchObject({ name: 'Initial key', role: 'owner', createdBy: null });
    expect((await createKey(tenant.apiKey, {})).role).toBe('admin');
    expect((await createKey(keys.admin, {})).role).toBe('admin');
    expect((await createKey(tenant.apiKey, {}, orgKeys())).role).toBe('admin');
    expect((await createKey(keys.orgAdmin, { role: 'viewer' }, orgKeys())).role).toBe('viewer');
  });

  it('no key gives a role above its own: an admin key cannot make an owner key, and an organization key is never an owner', async () => {
    const before = (await call(api.url, 'get', '/tenant/api_key', tenant.apiKey).expect(200)).body.data.length;
    expectProblem(
      await call(api.url, 'post', '/tenant/api_key', keys.admin, { name: 'Escalate', role: 'owner' }),
      insufficient("A key's role can be no higher than its creator's (admin)"),
    );
    const refused = await call(api.url, 'post', orgKeys(), tenant.apiKey, { name: 'Owner of one organization', role: 'owner' }).expect(400);
    expect(refused.body.code).toBe('validation_failed');
    expect((await call(api.url, 'get', '/tenant/api_key', tenant.apiKey).expect(200)).body.data.length).toBe(before);
  });

  it('a viewer key reads everything but secrets, and changes nothing', async () => {
    await call(api.url, 'get', '/organization', keys.viewer).expect(200);
    await call(api.url, 'get', '/tenant/member', keys.viewer).expect(200);
    const read = await call(api.url, 'get', `/organization/${organization.organizationId}/application/${appId}`, keys.viewer).expect(200);
    expect(read.body.clientSecret).toBeNull();
    const needAdmin = insufficient("This needs the admin role; this key's role is viewer");
    expectProblem(
      await call(api.url, 'get', `/organization/${organization.organizationId}/application/${appId}?include=secret`, keys.viewer),
      needAdmin,
    );
    expectProblem(await call(api.url, 'post', '/organization', keys.viewer, { name: 'Not by a viewer' }), needAdmin);
    expectProblem(
      await call(api.url, 'post', `/organization/${organization.organizationId}`, keys.orgViewer, { name: 'Renamed' }),
      needAdmin,
    );
    expectProblem(await call(api.url, 'post', '/tenant/api_key', keys.viewer, { name: 'More keys' }), needAdmin);
    expectProblem(
      await call(api.url, 'delete', `/organization/${organization.organizationId}/application/${appId}`, keys.viewer),
      needAdmin,
    );
    expect((await call(api.url, 'get', `/organization/${organization.organizationId}`, keys.viewer).expect(200)).body.name).toBe(
      (await call(api.url, 'get', `/organization/${organization.organizationId}`, tenant.apiKey)).body.name,
    );
  });

  it('an admin key cannot invite, promote, demote or remove members, nor revoke an owner key', async () => {
    const member = (
      await call(api.url, 'post', '/tenant/member', tenant.apiKey, { email: `${randomUUID()}@example.com`, role: 'viewer' }).expect(201)
    ).body;
    const needOwner = insufficient("This needs the owner role; this key's role is admin");
    expectProblem(
      await call(api.url, 'post', '/tenant/member', keys.admin, { email: `${randomUUID()}@example.com`, role: 'owner' }),
      needOwner,
    );
    expectProblem(await call(api.url, 'post', `/tenant/member/${member.id}`, keys.admin, { role: 'owner' }), needOwner);
    expectProblem(await call(api.url, 'delete', `/tenant/member/${member.id}`, keys.admin), needOwner);
    const initial = (await call(api.url, 'get', '/tenant/api_key', tenant.apiKey).expect(200)).body.data[0];
    expectProblem(
      await call(api.url, 'delete', `/tenant/api_key/${initial.id}`, keys.admin),
      insufficient('Revoking this key needs the owner role'),
    );
    const members = (await call(api.url, 'get', '/tenant/member', tenant.apiKey).expect(200)).body.data;
    expect(members).toEqual([expect.objectContaining({ id: member.id, role: 'viewer' })]);
    await call(api.url, 'get', '/tenant', tenant.apiKey).expect(200);
  });

  it('a client secret is answered only when asked for, to admins, and every such read is in the audit log with who and from where', async () => {
    const path = `/organization/${organization.organizationId}/application/${appId}`;
    expect((await call(api.url, 'get', path, keys.admin).expect(200)).body.clientSecret).toBeNull();
    const withSecret = await call(api.url, 'get', `${path}?include=secret`, keys.orgAdmin).expect(200);
    expect(withSecret.body.clientSecret).toMatch(/^cs_/);
    expectProblem(
      await call(api.url, 'get', `${path}?include=everything`, keys.admin),
      validationProblem([{ field: 'include', messages: ['include must be one of the following values: secret'] }]),
    );
    const events = (
      await call(api.url, 'get', `/tenant/audit_event?targetId=${appId}&action=application.secret_read`, tenant.apiKey).expect(200)
    ).body.data;
    expect(events).toEqual([
      expect.objectContaining({
        action: 'application.secret_read',
        targetType: 'application',
        targetId: appId,
        actor: expect.objectContaining({ type: 'api_key' }),
        ip: expect.any(String),
      }),
    ]);
    expect(JSON.stringify(events)).not.toContain(withSecret.body.clientSecret);
  });
});
