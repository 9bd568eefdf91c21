import { randomUUID } from 'node:crypto';
import { GlobalIpThrottlerGuard, MemberThrottlerGuard, PlanThrottlerGuard } from '@sesame/throttler';
import { RunningApp, startStack, Stack } from '../support/apps';
import { mailQueueConnected } from '../support/direct-auth';
import { createTenant, TenantFixture } from '../support/fixtures';
import { uniqueEmail } from '../support/login';
import { call, countRows, expectProblem, PLATFORM_KEY, UNTHROTTLED_ENV, validationProblem } from '../support/management';
import { SmtpSink } from '../support/smtp-sink';
import { ThrowawayRedis } from '../support/throwaway-redis';

const LAST_OWNER = {
  status: 409,
  code: 'last_owner',
  detail: "The tenant's last owner cannot be removed or demoted; make another member owner first",
};

/** Tenant members through the management API with a tenant key (the member tokens' side is in member-access.e2e-spec.ts). */
describe('tenant members', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let api: RunningApp;
  let tenant: TenantFixture;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url, { env: { ...UNTHROTTLED_ENV, CONSOLE_PUBLIC_URL: 'https://id.example.com/console' } });
    api = stack.management;
    tenant = await createTenant(api.url, 'pro');
  });
  afterAll(async () => {
    await stack?.close();
    await smtp.stop();
  });

  const invite = (email: string, role: string, key = tenant.apiKey) => call(api.url, 'post', '/tenant/member', key, { email, role });

  it('invites a member: stored normalised, listed, and e-mailed by the mail worker with who invited them and the console link', async () => {
    const email = uniqueEmail('invited');
    const response = await invite(`  ${email.toUpperCase()} `, 'admin').expect(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      tenantId: tenant.tenantId,
      email,
      role: 'admin',
      invitedBy: 'Initial key',
      createdAt: expect.any(String),
      lastSignInAt: null,
    });
    const mail = await smtp.next(email);
    expect(mail.subject).toMatch(/^You are invited to manage Tenant .* on Sesame$/);
    expect(mail.text).toContain('Initial key invited you to manage');
    expect(mail.text).toContain('as an admin.');
    expect(mail.text).toContain('Open the console: https://id.example.com/console/');
    const list = await call(api.url, 'get', '/tenant/member', tenant.apiKey).expect(200);
    expect(list.body.data).toContainEqual(response.body);
  });

  it('POST /v2/tenant with ownerEmail creates the first owner and invites them', async () => {
    const owner = uniqueEmail('first-owner');
    const created = await call(api.url, 'post', '/tenant', PLATFORM_KEY, { name: 'Owned', plan: 'free', ownerEmail: owner }).expect(201);
    expect(created.body.owner).toEqual(expect.objectContaining({ email: owner, role: 'owner', invitedBy: null }));
    expect((await smtp.next(owner)).text).toContain('You are an owner of Owned, a new tenant on Sesame.');
    const members = await call(api.url, 'get', '/tenant/member', created.body.apiKey.key).expect(200);
    expect(members.body.data.map((member: { email: string }) => member.email)).toEqual([owner]);
    const bad = await call(api.url, 'post', '/tenant', PLATFORM_KEY, { name: 'Bad owner', plan: 'free', ownerEmail: 'not an address' });
    expectProblem(bad, validationProblem([{ field: 'ownerEmail', messages: ['ownerEmail must be a valid e-mail address'] }]));
  });

  it('refuses bad input and duplicates, changing nothing', async () => {
    const email = uniqueEmail('duplicate');
    await invite(email, 'viewer').expect(201);
    expectProblem(await invite(email.toUpperCase(), 'admin'), {
      status: 409,
      code: 'member_exists',
      detail: 'This address is already a member of the tenant',
    });
    expectProblem(
      await invite('nobody', 'viewer'),
      validationProblem([{ field: 'email', messages: ['email must be a valid e-mail address'] }]),
    );
    expectProblem(
      await invite(uniqueEmail(), 'superuser'),
      validationProblem([{ field: 'role', messages: ['role must be one of the following values: viewer, admin, owner'] }]),
    );
    const members = (await call(api.url, 'get', '/tenant/member', tenant.apiKey).query({ limit: '100' }).expect(200)).body.data;
    expect(members.filter((member: { email: string }) => member.email === email)).toEqual([expect.objectContaining({ role: 'viewer' })]);
    expectProblem(await call(api.url, 'post', `/tenant/member/${randomUUID()}`, tenant.apiKey, { role: 'admin' }), {
      status: 404,
      code: 'not_found',
      detail: 'member not found',
    });
  });

  it('changes roles, removes members, and keeps the last owner', async () => {
    const fresh = await createTenant(api.url, 'pro');
    const first = (await invite(uniqueEmail('owner-a'), 'owner', fresh.apiKey).expect(201)).body.id;
    expectProblem(await call(api.url, 'post', `/tenant/member/${first}`, fresh.apiKey, { role: 'admin' }), LAST_OWNER);
    expectProblem(await call(api.url, 'delete', `/tenant/member/${first}`, fresh.apiKey), LAST_OWNER);

    const second = (await invite(uniqueEmail('owner-b'), 'viewer', fresh.apiKey).expect(201)).body.id;
    expect((await call(api.url, 'post', `/tenant/member/${second}`, fresh.apiKey, { role: 'owner' }).expect(200)).body.role).toBe('owner');
    expect((await call(api.url, 'post', `/tenant/member/${first}`, fresh.apiKey, { role: 'viewer' }).expect(200)).body.role).toBe('viewer');
    expectProblem(await call(api.url, 'delete', `/tenant/member/${second}`, fresh.apiKey), LAST_OWNER);
    await call(api.url, 'delete', `/tenant/member/${first}`, fresh.apiKey).expect(204);
    const left = (await call(api.url, 'get', '/tenant/member', fresh.apiKey).expect(200)).body.data;
    expect(left.map((member: { id: string; role: string }) => [member.id, member.role])).toEqual([[second, 'owner']]);
  });

  it('two owners demoting each other at once: exactly one succeeds, an owner is left', async () => {
    const fresh = await createTenant(api.url, 'pro');
    const ids = await Promise.all(
      ['one', 'two'].map(async (label) => (await invite(uniqueEmail(label), 'owner', fresh.apiKey).expect(201)).body.id as string),
    );
    const answers = await Promise.all(ids.map((id) => call(api.url, 'post', `/tenant/member/${id}`, fresh.apiKey, { role: 'admin' })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const owners = (await call(api.url, 'get', '/tenant/member', fresh.apiKey).expect(200)).body.data.filter(
      (member: { role: string }) => member.role === 'owner',
    );
    expect(owners).toHaveLength(1);
  });
});

describe('inviting while the mail queue is unreachable', () => {
  const smtp = new SmtpSink();
  let redis: ThrowawayRedis;
  let stack: Stack;

  beforeAll(async () => {
    redis = await ThrowawayRedis.start();
    await smtp.start();
    // Limits set aside (they are in Redis too), to reach the enqueue.
    const passThrough = { canActivate: () => true };
    stack = await startStack(smtp.url, {
      env: { REDIS_URL: redis.url, MAIL_ENQUEUE_TIMEOUT_MS: '300' },
      override: (builder) =>
        builder
          .overrideProvider(GlobalIpThrottlerGuard)
          .useValue(passThrough)
          .overrideProvider(PlanThrottlerGuard)
          .useValue(passThrough)
          .overrideProvider(MemberThrottlerGuard)
          .useValue(passThrough),
    });
  });
  afterAll(async () => {
    if (redis && !redis.running) {
      await redis.restart();
      // Teardown only: the queues reconnect before the apps close, but a blocking client Bull was
      // forcing to reconnect during the outage can stay stuck (ioredis: "already connecting"), and
      // the apps close without it; so the wait is bounded rather than left to the hook's timeout.
      const reconnected = Promise.all([mailQueueConnected(stack.management), mailQueueConnected(stack.worker)]);
      let bound: NodeJS.Timeout | undefined;
      await Promise.race([reconnected, new Promise((resolve) => (bound = setTimeout(resolve, 10_000)))]);
      clearTimeout(bound);
    }
    await stack?.close();
    await redis?.kill();
    await smtp.stop();
  });

  it('answers 503 and keeps neither the member nor, for POST /v2/tenant, the tenant', async () => {
    const tenant = await createTenant(stack.management.url, 'pro');
    await redis.kill();
    const email = uniqueEmail('unqueued');
    const refused = await call(stack.management.url, 'post', '/tenant/member', tenant.apiKey, { email, role: 'admin' });
    expectProblem(refused, {
      status: 503,
      code: 'mail_queue_unavailable',
      detail: 'The invitation e-mail cannot be queued right now, so nothing was changed; try again shortly',
    });
    expect(refused.headers['retry-after']).toBe('5');
    expect((await call(stack.management.url, 'get', '/tenant/member', tenant.apiKey).expect(200)).body.data).toEqual([]);

    // Other test files create tenants meanwhile: look for this one by its own name.
    const name = `Not kept ${randomUUID()}`;
    expect((await call(stack.management.url, 'post', '/tenant', PLATFORM_KEY, { name, plan: 'pro', ownerEmail: email })).status).toBe(503);
    expect(await countRows('tenant', 'name = $1', [name])).toBe(0);
  });
});
