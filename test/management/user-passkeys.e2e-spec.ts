import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { RunningApp } from '../support/apps';
import { query } from '../support/direct-auth';
import { createOrganization, createTenant, OrganizationFixture, TenantFixture } from '../support/fixtures';
import {
  call,
  createOrganizationKey,
  createUser,
  expectProblem,
  expectSameAsNonexistent,
  insertPasskey,
  startUnthrottledManagementApi,
} from '../support/management';

const PASSKEY_FIELDS = ['backedUp', 'createdAt', 'deviceType', 'id', 'lastUsedAt', 'name', 'rpId', 'transports'];

/**
 * A user's passkeys in the management API: listed by whoever may read the user, removed by whoever
 * may block or delete them. A removal is audited and sent as `passkey.removed`; passkeys of another
 * user or organization are 404 like ids that do not exist, and nothing changes.
 */
describe("users' passkeys", () => {
  let api: RunningApp;
  let tenant: TenantFixture;
  let organization: OrganizationFixture;
  let sibling: OrganizationFixture;

  beforeAll(async () => {
    api = await startUnthrottledManagementApi();
    tenant = await createTenant(api.url);
    organization = await createOrganization(api.url, tenant);
    sibling = await createOrganization(api.url, tenant);
  });
  afterAll(() => api.close());

  const passkeysPath = (userId: string, org = organization) => `/organization/${org.organizationId}/user/${userId}/passkey`;
  const list = (userId: string, key = tenant.apiKey, org = organization) => call(api.url, 'get', passkeysPath(userId, org), key);
  const remove = (userId: string, passkeyId: string, key = tenant.apiKey, org = organization) =>
    call(api.url, 'delete', `${passkeysPath(userId, org)}/${passkeyId}`, key);
  const newUser = async (org = organization) => (await createUser(api.url, org, { email: `${randomUUID()}@example.com` })).id;

  /**
   * A 404 for something out of reach is the very 404 of an id that does not exist: the same path
   * with its last id random (the organization stays in reach, so the answer is about the user or passkey).
   */
  async function expectLikeUnknownLastId(method: 'get' | 'delete', path: string, key = tenant.apiKey) {
    const ids = path.match(/[0-9a-f-]{36}/g)!;
    const missingPath = path.replace(ids.at(-1)!, randomUUID());
    const [foreign, missing] = [await call(api.url, method, path, key), await call(api.url, method, missingPath, key)];
    expect(foreign.status).toBe(404);
    expect({ ...foreign.body, instance: undefined }).toEqual({ ...missing.body, instance: undefined });
    expect(foreign.headers['content-type']).toBe(missing.headers['content-type']);
  }

  /** What could have changed: the passkeys stored, the events sent and the audit events written about passkeys. */
  async function passkeyState() {
    const [passkeys, events, audit] = await Promise.all([
      query<{ id: string }>('SELECT id FROM passkey WHERE organization_id IN ($1, $2) ORDER BY id', [
        organization.organizationId,
        sibling.organizationId,
      ]),
      query("SELECT id FROM webhook_event WHERE tenant_id = $1 AND type = 'passkey.removed' ORDER BY id", [tenant.tenantId]),
      query("SELECT id FROM audit_event WHERE tenant_id = $1 AND target_type = 'passkey' ORDER BY id", [tenant.tenantId]),
    ]);
    return { passkeys, events, audit };
  }

  it('lists no passkeys for a user who has none', async () => {
    const response = await list(await newUser()).expect(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual({ data: [] });
  });

  it("lists the user's passkeys oldest first, with what a tenant may see and never the key itself", async () => {
    const userId = await newUser();
    const other = await newUser();
    await insertPasskey(organization.organizationId, other);
    const laptop = await insertPasskey(organization.organizationId, userId, {
      name: 'Chrome on macOS',
      deviceType: 'multiDevice',
      backedUp: true,
      transports: ['internal', 'hybrid'],
      createdAt: new Date('2026-10-01T10:00:00.000Z'),
      lastUsedAt: new Date('2026-11-01T08:30:00.000Z'),
    });
    const key = await insertPasskey(organization.organizationId, userId, {
      name: 'Firefox on Windows',
      deviceType: 'singleDevice',
      backedUp: false,
      transports: ['usb'],
      createdAt: new Date('2026-10-02T10:00:00.000Z'),
      rpId: 'app.example.com',
    });

    const response = await list(userId).expect(200);
    expect(response.body.data.map((passkey: object) => Object.keys(passkey).sort())).toEqual([PASSKEY_FIELDS, PASSKEY_FIELDS]);
    expect(response.body).toEqual({
      data: [
        {
          id: laptop,
          name: 'Chrome on macOS',
          deviceType: 'multiDevice',
          backedUp: true,
          transports: ['internal', 'hybrid'],
          rpId: null,
          createdAt: '2026-10-01T10:00:00.000Z',
          lastUsedAt: '2026-11-01T08:30:00.000Z',
        },
        {
          id: key,
          name: 'Firefox on Windows',
          deviceType: 'singleDevice',
          backedUp: false,
          transports: ['usb'],
          rpId: 'app.example.com',
          createdAt: '2026-10-02T10:00:00.000Z',
          lastUsedAt: null,
        },
      ],
    });
  });

  it('removes a passkey: 204, gone from the list, passkey.removed in the outbox, audited with the caller', async () => {
    const user = await createUser(api.url, organization, { email: `${randomUUID()}@example.com` });
    const kept = await insertPasskey(organization.organizationId, user.id, { name: 'Kept', createdAt: new Date('2026-10-01T00:00:00Z') });
    const removed = await insertPasskey(organization.organizationId, user.id, { name: 'Safari on iPhone', deviceType: 'multiDevice' });

    const response = await remove(user.id, removed).set('X-Request-Id', 'remove-passkey-1').expect(204);
    expect(response.text).toBe('');
    expect((await list(user.id).expect(200)).body.data.map((passkey: { id: string }) => passkey.id)).toEqual([kept]);

    const events = await query<{ organization_id: string; payload: Record<string, unknown> }>(
      "SELECT organization_id, payload FROM webhook_event WHERE type = 'passkey.removed' AND payload->'passkey'->>'id' = $1",
      [removed],
    );
    expect(events).toEqual([
      {
        organization_id: organization.organizationId,
        payload: {
          user: { id: user.id, email: user.email, organizationId: organization.organizationId },
          passkey: { id: removed, name: 'Safari on iPhone', deviceType: 'multiDevice', backedUp: true },
          removedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        },
      },
    ]);

    const audit = await call(api.url, 'get', '/tenant/audit_event', tenant.apiKey).query({ action: 'passkey.remove' }).expect(200);
    expect(audit.body.data).toEqual([
      {
        id: expect.any(String),
        actor: { type: 'api_key', id: expect.any(String), name: 'Initial key' },
        action: 'passkey.remove',
        targetType: 'passkey',
        targetId: removed,
        changes: null,
        ip: expect.any(String),
        requestId: 'remove-passkey-1',
        createdAt: expect.any(String),
      },
    ]);

    // Removed once: a second removal finds nothing.
    expectProblem(await remove(user.id, removed), { status: 404, code: 'not_found', detail: 'passkey not found' });
  });

  it("answers 404 for another organization's or another user's passkey, like one that does not exist, and changes nothing", async () => {
    const userId = await newUser();
    const otherUser = await newUser();
    const siblingUser = await newUser(sibling);
    const othersPasskey = await insertPasskey(organization.organizationId, otherUser);
    const siblingsPasskey = await insertPasskey(sibling.organizationId, siblingUser);
    const organizationKey = (await createOrganizationKey(api.url, { ...organization, apiKey: tenant.apiKey })).key;
    const before = await passkeyState();

    // Another user's passkey under this user; another organization's passkey under this organization's user or its own user.
    await expectLikeUnknownLastId('delete', `${passkeysPath(userId)}/${othersPasskey}`);
    await expectLikeUnknownLastId('delete', `${passkeysPath(userId)}/${siblingsPasskey}`);
    await expectLikeUnknownLastId('delete', `${passkeysPath(siblingUser)}/${siblingsPasskey}`);
    // An organization key reaches its own organization only.
    await expectSameAsNonexistent(api.url, 'delete', `${passkeysPath(siblingUser, sibling)}/${siblingsPasskey}`, organizationKey);
    await expectSameAsNonexistent(api.url, 'get', passkeysPath(siblingUser, sibling), organizationKey);
    // The sibling's user is not a user of this organization: their list is a 404, not an empty list.
    await expectLikeUnknownLastId('get', passkeysPath(siblingUser));

    expect(await passkeyState()).toEqual(before);
    expect((await list(siblingUser, tenant.apiKey, sibling).expect(200)).body.data.map((p: { id: string }) => p.id)).toEqual([
      siblingsPasskey,
    ]);
  });

  it('refuses a viewer the removal with 403 insufficient_role and keeps the passkey; a viewer may list', async () => {
    const viewer = (await call(api.url, 'post', '/tenant/api_key', tenant.apiKey, { name: 'Viewer', role: 'viewer' }).expect(201)).body.key;
    const userId = await newUser();
    const passkeyId = await insertPasskey(organization.organizationId, userId);
    const before = await passkeyState();

    expectProblem(await remove(userId, passkeyId, viewer), {
      status: 403,
      code: 'insufficient_role',
      detail: "This needs the admin role; this key's role is viewer",
    });
    expect(await passkeyState()).toEqual(before);
    expect((await list(userId, viewer).expect(200)).body.data.map((p: { id: string }) => p.id)).toEqual([passkeyId]);
  });

  it('answers 400 invalid_id for ids that are not UUIDs, before any lookup', async () => {
    const userId = await newUser();
    expectProblem(await remove(userId, 'not-a-uuid'), { status: 400, code: 'invalid_id', detail: 'passkeyId must be a UUID' });
    expectProblem(await call(api.url, 'get', `/organization/${organization.organizationId}/user/nope/passkey`, tenant.apiKey), {
      status: 400,
      code: 'invalid_id',
      detail: 'userId must be a UUID',
    });
  });

  it("deleting a user removes the user's passkeys with them", async () => {
    const userId = await newUser();
    await insertPasskey(organization.organizationId, userId);
    await insertPasskey(organization.organizationId, userId, { name: 'Second' });
    await call(api.url, 'delete', `/organization/${organization.organizationId}/user/${userId}`, tenant.apiKey).expect(204);
    expect(await query('SELECT id FROM passkey WHERE user_id = $1', [userId])).toEqual([]);
    await expectLikeUnknownLastId('get', passkeysPath(userId));
  });

  it('a removal locks the passkey before its user, as a sign-in does: one running beside a sign-in waits, it does not deadlock', async () => {
    const userId = await newUser();
    const passkeyId = await insertPasskey(organization.organizationId, userId);
    // A passkey sign-in's transaction (PasskeyRepository.lockForSignIn): the passkey's row first, then its user's.
    const signIn = new Client({ connectionString: process.env.DATABASE_URL });
    await signIn.connect();
    try {
      await signIn.query('BEGIN');
      expect((await signIn.query('SELECT 1 FROM passkey WHERE id = $1 FOR UPDATE', [passkeyId])).rowCount).toBe(1);
      const removal = remove(userId, passkeyId).then((response) => response);
      await lockWaiterOf(signIn);
      await signIn.query("SET LOCAL lock_timeout = '5s'");
      await signIn.query('SELECT 1 FROM "user" WHERE id = $1 FOR UPDATE', [userId]);
      await signIn.query('COMMIT');
      expect((await removal).status).toBe(204);
    } finally {
      await signIn.end();
    }
    expect(await query('SELECT id FROM passkey WHERE id = $1', [passkeyId])).toEqual([]);
  });

  /** Resolves once another session of the database waits for a lock that `holder`'s session holds. */
  async function lockWaiterOf(holder: Client): Promise<void> {
    const [{ pid }] = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    for (;;) {
      const waiting = await query('SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid]);
      if (waiting.length > 0) return;
    }
  }
});
