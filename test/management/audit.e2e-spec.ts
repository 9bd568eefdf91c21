import { randomUUID } from 'node:crypto';
import { Response } from 'supertest';
import { CONSOLE_SETUP_TIMEOUT_MS, ConsoleBrowser, ConsoleStack, signInThroughConsole, startConsoleStack } from '../support/console';
import { query } from '../support/direct-auth';
import { uniqueEmail } from '../support/login';
import {
  call,
  expectProblem,
  insertFailedDelivery,
  insertPasskey,
  PLATFORM_KEY,
  registeredRoutes,
  UNTHROTTLED_ENV,
  V2,
  validationProblem,
} from '../support/management';
import { SmtpSink } from '../support/smtp-sink';

interface Change {
  route: string;
  action: string;
  targetId: string;
  actor: 'api_key' | 'member' | 'platform';
  changes: Record<string, unknown> | null;
  requestId: string;
}

/**
 * Every change made through the management API, by a key or by a member, writes an audit event:
 * actor, action, target, the fields set (never a secret), the caller's address and request id.
 */
describe('the audit log', () => {
  const smtp = new SmtpSink();
  let stack: ConsoleStack;
  let tenantId: string;
  let apiKey: string;
  let owner: ConsoleBrowser;
  let ownerEmail: string;
  const changes: Change[] = [];
  /** Every secret the calls were answered with: none may appear in the log. */
  const secrets: string[] = [];

  beforeAll(async () => {
    await smtp.start();
    stack = await startConsoleStack(smtp.url, { env: UNTHROTTLED_ENV });
    ownerEmail = uniqueEmail('audit-owner');
    const created = await call(stack.origin, 'post', '/tenant', PLATFORM_KEY, { name: 'Audited', plan: 'pro', ownerEmail })
      .set('X-Request-Id', 'audit-tenant-create')
      .expect(201);
    tenantId = created.body.tenant.id;
    apiKey = created.body.apiKey.key;
    secrets.push(apiKey);
    changes.push({
      route: 'POST /tenant',
      action: 'tenant.create',
      targetId: tenantId,
      actor: 'platform',
      changes: { name: 'Audited', plan: 'pro', ownerEmail },
      requestId: 'audit-tenant-create',
    });
    owner = await signInThroughConsole(stack, smtp, ownerEmail);
  }, CONSOLE_SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await stack?.close();
    await smtp.stop();
  });

  let counter = 0;
  /** Makes a change as the tenant key or as the owner (through the management API with their token), and records what the log should say. */
  async function change(
    actor: 'api_key' | 'member',
    method: 'post' | 'delete',
    route: string,
    path: string,
    body?: Record<string, unknown>,
  ): Promise<Response> {
    const requestId = `audit-${++counter}`;
    const credential = actor === 'api_key' ? apiKey : owner.accessToken!;
    const test = call(stack.origin, method, path, credential, body).set('X-Request-Id', requestId);
    const response = await (actor === 'member' ? test.set('Sesame-Tenant', tenantId) : test);
    expect([route, response.status]).toEqual([route, method === 'delete' ? 204 : expect.any(Number)]);
    expect(response.status).toBeLessThan(300);
    for (const secret of [response.body?.key, response.body?.clientSecret, response.body?.secret])
      if (typeof secret === 'string') secrets.push(secret);
    const action = ACTIONS[route];
    // What a route creates is its answer; what it changes or removes is the last id of its path.
    const targetId = /\.(create|invite)$/.test(action)
      ? response.body.id
      : path
          .split('/')
          .filter((part) => /^[0-9a-f-]{36}$/.test(part))
          .at(-1)!;
    changes.push({ route, action, targetId, actor, changes: body && Object.keys(body).length > 0 ? body : null, requestId });
    return response;
  }

  const ACTIONS: Record<string, string> = {
    'POST /tenant/{tenantId}': 'tenant.update',
    'POST /tenant/api_key': 'api_key.create',
    'DELETE /tenant/api_key/{keyId}': 'api_key.revoke',
    'POST /tenant/member': 'member.invite',
    'POST /tenant/member/{memberId}': 'member.update',
    'DELETE /tenant/member/{memberId}': 'member.remove',
    'POST /organization': 'organization.create',
    'POST /organization/{id}': 'organization.update',
    'DELETE /organization/{id}': 'organization.delete',
    'POST /organization/{organizationId}/user': 'user.create',
    'POST /organization/{organizationId}/user/{userId}': 'user.update',
    'DELETE /organization/{organizationId}/user/{userId}/passkey/{passkeyId}': 'passkey.remove',
    'DELETE /organization/{organizationId}/user/{userId}': 'user.delete',
    'POST /organization/{organizationId}/application': 'application.create',
    'POST /organization/{organizationId}/application/{applicationId}': 'application.update',
    'POST /organization/{organizationId}/application/{applicationId}/rotate_secret': 'application.rotate_secret',
    'DELETE /organization/{organizationId}/application/{applicationId}': 'application.delete',
    'POST /organization/{organizationId}/api_key': 'api_key.create',
    'DELETE /organization/{organizationId}/api_key/{keyId}': 'api_key.revoke',
    'POST /tenant/webhook_endpoint': 'webhook_endpoint.create',
    'POST /tenant/webhook_endpoint/{endpointId}': 'webhook_endpoint.update',
    'POST /tenant/webhook_endpoint/{endpointId}/rotate_secret': 'webhook_endpoint.rotate_secret',
    'POST /tenant/webhook_endpoint/{endpointId}/test': 'webhook_endpoint.test',
    'POST /tenant/webhook_endpoint/{endpointId}/delivery/{deliveryId}/redeliver': 'webhook_delivery.redeliver',
    'POST /tenant/webhook_event/{eventId}/redeliver': 'webhook_event.redeliver',
    'DELETE /tenant/webhook_endpoint/{endpointId}': 'webhook_endpoint.delete',
  };

  it('records every mutating route, by key and by member, without a secret', async () => {
    // Half of the changes by the tenant key, half by the owner in the console.
    await change('member', 'post', 'POST /tenant/{tenantId}', `/tenant/${tenantId}`, { name: 'Audited and renamed' });
    const key = await change('member', 'post', 'POST /tenant/api_key', '/tenant/api_key', { name: 'Deploys' });
    await change('api_key', 'delete', 'DELETE /tenant/api_key/{keyId}', `/tenant/api_key/${key.body.id}`);
    const member = await change('api_key', 'post', 'POST /tenant/member', '/tenant/member', {
      email: uniqueEmail('audited'),
      role: 'viewer',
    });
    await change('member', 'post', 'POST /tenant/member/{memberId}', `/tenant/member/${member.body.id}`, { role: 'admin' });
    await change('member', 'delete', 'DELETE /tenant/member/{memberId}', `/tenant/member/${member.body.id}`);
    const organization = await change('api_key', 'post', 'POST /organization', '/organization', {
      name: 'Audited org',
      whitelistDomains: ['https://audited.example'],
    });
    const org = `/organization/${organization.body.id}`;
    await change('member', 'post', 'POST /organization/{id}', org, { autologin: true });
    const user = await change('member', 'post', 'POST /organization/{organizationId}/user', `${org}/user`, {
      email: uniqueEmail('user'),
      name: 'Ada',
    });
    await change('api_key', 'post', 'POST /organization/{organizationId}/user/{userId}', `${org}/user/${user.body.id}`, { blocked: true });
    const passkey = await insertPasskey(organization.body.id, user.body.id);
    await change(
      'api_key',
      'delete',
      'DELETE /organization/{organizationId}/user/{userId}/passkey/{passkeyId}',
      `${org}/user/${user.body.id}/passkey/${passkey}`,
    );
    await change('member', 'delete', 'DELETE /organization/{organizationId}/user/{userId}', `${org}/user/${user.body.id}`);
    const application = await change('member', 'post', 'POST /organization/{organizationId}/application', `${org}/application`, {
      name: 'Shop',
      type: 'web',
    });
    const app = `${org}/application/${application.body.id}`;
    await change('api_key', 'post', 'POST /organization/{organizationId}/application/{applicationId}', app, {
      callbackUrls: ['https://audited.example/cb'],
    });
    await change('member', 'post', 'POST /organization/{organizationId}/application/{applicationId}/rotate_secret', `${app}/rotate_secret`);
    await change('api_key', 'delete', 'DELETE /organization/{organizationId}/application/{applicationId}', app);
    const orgKey = await change('api_key', 'post', 'POST /organization/{organizationId}/api_key', `${org}/api_key`, { name: 'Org key' });
    await change('member', 'delete', 'DELETE /organization/{organizationId}/api_key/{keyId}', `${org}/api_key/${orgKey.body.id}`);
    await change('member', 'delete', 'DELETE /organization/{id}', org);
    const endpoint = await change('api_key', 'post', 'POST /tenant/webhook_endpoint', '/tenant/webhook_endpoint', {
      url: 'https://hooks.audited.example/sesame',
    });
    const hook = `/tenant/webhook_endpoint/${endpoint.body.id}`;
    await change('member', 'post', 'POST /tenant/webhook_endpoint/{endpointId}', hook, { description: 'Audited' });
    await change('member', 'post', 'POST /tenant/webhook_endpoint/{endpointId}/rotate_secret', `${hook}/rotate_secret`);
    await change('api_key', 'post', 'POST /tenant/webhook_endpoint/{endpointId}/test', `${hook}/test`);
    const delivery = await insertFailedDelivery(tenantId, endpoint.body.id);
    await change(
      'member',
      'post',
      'POST /tenant/webhook_endpoint/{endpointId}/delivery/{deliveryId}/redeliver',
      `${hook}/delivery/${delivery.deliveryId}/redeliver`,
    );
    const another = await insertFailedDelivery(tenantId, endpoint.body.id);
    await change('api_key', 'post', 'POST /tenant/webhook_event/{eventId}/redeliver', `/tenant/webhook_event/${another.eventId}/redeliver`);
    await change('api_key', 'delete', 'DELETE /tenant/webhook_endpoint/{endpointId}', hook);

    const mutating = registeredRoutes(stack.stack.management)
      .filter((route) => /^(POST|DELETE) /.test(route))
      .map((route) => route.replace(V2, '').replace(/:(\w+)/g, '{$1}'));
    expect(changes.map((made) => made.route).sort()).toEqual(mutating.sort());

    const log = await call(stack.origin, 'get', '/tenant/audit_event', apiKey).query({ limit: '100' }).expect(200);
    expect(log.body.nextCursor).toBeNull();
    const events = [...log.body.data].reverse();
    expect(events.map((event: { action: string }) => event.action)).toEqual(changes.map((made) => made.action));
    const ownerId = (await call(stack.origin, 'get', '/tenant/member', apiKey).expect(200)).body.data.find(
      (m: { email: string }) => m.email === ownerEmail,
    ).id;
    const keyId = (await call(stack.origin, 'get', '/tenant/api_key', apiKey).expect(200)).body.data.find(
      (k: { name: string }) => k.name === 'Initial key',
    ).id;
    const actors = {
      platform: { type: 'platform', id: null, name: null },
      api_key: { type: 'api_key', id: keyId, name: 'Initial key' },
      member: { type: 'member', id: ownerId, name: ownerEmail },
    };
    changes.forEach((made, i) => {
      expect([made.route, events[i]]).toEqual([
        made.route,
        {
          id: expect.any(String),
          actor: actors[made.actor],
          action: made.action,
          targetType: made.action.split('.')[0],
          targetId: made.targetId,
          changes: made.changes,
          ip: expect.stringMatching(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/),
          requestId: made.requestId,
          createdAt: expect.any(String),
        },
      ]);
    });

    const stored = JSON.stringify(await query('SELECT * FROM audit_event WHERE tenant_id = $1', [tenantId]));
    expect(secrets.length).toBeGreaterThanOrEqual(5);
    for (const secret of secrets) expect(stored.includes(secret) || JSON.stringify(log.body).includes(secret)).toBe(false);
  });

  it('filters by actor, action, target and time, newest first, page by page', async () => {
    const log = (filters: Record<string, string>) => call(stack.origin, 'get', '/tenant/audit_event', apiKey).query(filters).expect(200);
    const byMember = (await log({ actorType: 'member', limit: '100' })).body.data;
    expect(byMember.length).toBe(changes.filter((made) => made.actor === 'member').length);
    expect(new Set(byMember.map((event: { actor: { type: string } }) => event.actor.type))).toEqual(new Set(['member']));
    const memberId = byMember[0].actor.id;
    expect((await log({ actorId: memberId, limit: '100' })).body.data).toEqual(byMember);
    expect((await log({ action: 'api_key.revoke' })).body.data).toHaveLength(2);
    const organizationId = changes.find((made) => made.action === 'organization.create')!.targetId;
    expect(
      (await log({ targetType: 'organization', targetId: organizationId })).body.data.map((event: { action: string }) => event.action),
    ).toEqual(['organization.delete', 'organization.update', 'organization.create']);
    expect((await log({ to: '2000-01-01T00:00:00Z' })).body.data).toEqual([]);
    expect((await log({ from: new Date(Date.now() + 60_000).toISOString() })).body.data).toEqual([]);

    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { id: string }[]; nextCursor: string | null } = (await log({ limit: '5', ...(cursor ? { cursor } : {}) })).body;
      pages.push(page.data.map((event) => event.id));
      cursor = page.nextCursor;
    } while (cursor);
    const all = (await log({ limit: '100' })).body.data.map((event: { id: string }) => event.id);
    expect(pages.flat()).toEqual(all);
    expectProblem(
      await call(stack.origin, 'get', '/tenant/audit_event', apiKey).query({ actorId: 'nobody' }),
      validationProblem([{ field: 'actorId', messages: ['actorId must be a UUID'] }]),
    );
  });

  it('another tenant sees none of it', async () => {
    const other = await call(stack.origin, 'post', '/tenant', PLATFORM_KEY, { name: `Other ${randomUUID()}`, plan: 'pro' }).expect(201);
    const log = (await call(stack.origin, 'get', '/tenant/audit_event', other.body.apiKey.key).expect(200)).body.data;
    expect(log.map((event: { action: string; targetId: string }) => [event.action, event.targetId])).toEqual([
      ['tenant.create', other.body.tenant.id],
    ]);
  });
});
