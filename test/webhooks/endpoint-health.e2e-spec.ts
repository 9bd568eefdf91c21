import { ManualClock } from '@sesame/common';
import request from 'supertest';
import { until } from '../containers/support/until';
import { startStack, Stack } from '../support/apps';
import { createTenant, TenantFixture } from '../support/fixtures';
import { uniqueEmail } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';
import { TEST_PLATFORM_API_KEY } from '../support/test-env';
import { ThrowawayDatabase } from '../support/throwaway-database';
import { bodyOf, ReceivedWebhook, WebhookReceiver } from './receiver';

const DAY_SECONDS = 24 * 3600;

/**
 * What keeps one tenant's endpoint from hurting others, and a dead endpoint from being tried
 * forever: at most WEBHOOK_TENANT_CONCURRENCY tries of a tenant at once in a worker, and an
 * endpoint whose every try failed for WEBHOOK_DISABLE_AFTER_DAYS disabled, audited, its owners told.
 * The apps share a ManualClock, so days pass by hand (and signatures are checked elsewhere: the
 * reference library refuses timestamps this far from the real time).
 */
describe('webhook endpoint health', () => {
  const smtp = new SmtpSink();
  const fast = new WebhookReceiver();
  const slow = new WebhookReceiver();
  const clock = new ManualClock(new Date('2031-03-01T10:00:00.000Z'));
  let stack: Stack;
  let database: ThrowawayDatabase;

  beforeAll(async () => {
    await Promise.all([smtp.start(), fast.start(), slow.start()]);
    database = await ThrowawayDatabase.create();
    stack = await startStack(smtp.url, {
      clock,
      env: {
        DATABASE_URL: database.url,
        WEBHOOK_ALLOW_HTTP_LOOPBACK: 'on',
        WEBHOOK_RETRY_DELAYS_MS: '50,50,50',
        WEBHOOK_DISPATCH_INTERVAL_MS: '50',
        WEBHOOK_TENANT_CONCURRENCY: '2',
        WEBHOOK_DISABLE_AFTER_DAYS: '5',
      },
    });
  });

  afterAll(async () => {
    slow.release();
    await stack?.close();
    await Promise.all([fast.stop(), slow.stop(), smtp.stop()]);
    await database?.drop();
  });

  const management = () => request(stack.management.url);
  const as = (tenant: TenantFixture, test: request.Test) => test.set('Authorization', `Bearer ${tenant.apiKey}`);
  const addEndpoint = async (tenant: TenantFixture, url: string) =>
    (await as(tenant, management().post('/api/v2/tenant/webhook_endpoint')).send({ url }).expect(201)).body as {
      id: string;
      secret: string;
    };
  const ping = async (tenant: TenantFixture, endpointId: string) =>
    ((await as(tenant, management().post(`/api/v2/tenant/webhook_endpoint/${endpointId}/test`)).expect(202)).body as { eventId: string })
      .eventId;
  const withId = (id: string) => (hook: ReceivedWebhook) => hook.headers['webhook-id'] === id;

  it("a tenant whose endpoint hangs holds two of the worker's slots, not all eight: another tenant's event goes through", async () => {
    const hanging = await createTenant(stack.management.url);
    const other = await createTenant(stack.management.url);
    const stuck = await addEndpoint(hanging, slow.url);
    const healthy = await addEndpoint(other, fast.url);
    slow.hold();
    const stuckPings: string[] = [];
    for (let i = 0; i < 6; i++) stuckPings.push(await ping(hanging, stuck.id));
    await slow.holding(2);

    const through = await fast.next(withId(await ping(other, healthy.id)));
    expect(bodyOf(through).type).toBe('ping');
    expect(slow.heldCount).toBe(2);

    // Released, every deferred delivery arrives, each on its first try: waiting for a slot is no try.
    slow.release();
    for (const id of stuckPings) await slow.next(withId(id));
    expect(slow.received.filter((hook) => stuckPings.includes(String(hook.headers['webhook-id'])))).toHaveLength(6);
    const deliveries = async () =>
      (await as(hanging, management().get(`/api/v2/tenant/webhook_endpoint/${stuck.id}/delivery`)).expect(200)).body.data as {
        status: string;
        attempts: number;
      }[];
    await until('all recorded', async () => (await deliveries()).every((delivery) => delivery.status === 'succeeded'), 20_000);
    expect((await deliveries()).map((delivery) => delivery.attempts)).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('an endpoint whose tries kept failing for five days is disabled: audited as done by Sesame, its owners e-mailed, nothing tried until it is enabled', async () => {
    const ownerEmail = uniqueEmail('hook-owner');
    const created = await management()
      .post('/api/v2/tenant')
      .set('Authorization', `Bearer ${TEST_PLATFORM_API_KEY}`)
      .send({ name: 'Failing hooks', plan: 'pro', ownerEmail })
      .expect(201);
    const tenant = { tenantId: created.body.tenant.id as string, apiKey: created.body.apiKey.key as string };
    await smtp.next(ownerEmail); // the owner's invitation
    const endpoint = await addEndpoint(tenant, fast.url);
    const path = `/api/v2/tenant/webhook_endpoint/${endpoint.id}`;
    const statusOf = async (eventId: string) =>
      ((await as(tenant, management().get(`${path}/delivery`)).expect(200)).body.data as { eventId: string; status: string }[]).find(
        (delivery) => delivery.eventId === eventId,
      )?.status;

    const enabledState = async () =>
      (await as(tenant, management().get(path)).expect(200)).body as { enabled: boolean; disabledReason: string };
    const failOneDelivery = async () => {
      fast.answerWith(500, 500, 500, 500);
      const eventId = await ping(tenant, endpoint.id);
      await until('the delivery failed', async () => (await statusOf(eventId)) === 'failed', 20_000);
    };

    // A failed delivery, then a quiet week, then another: two streaks of a moment, the endpoint stays on.
    await failOneDelivery();
    clock.advance(7 * DAY_SECONDS);
    await failOneDelivery();
    expect(await enabledState()).toMatchObject({ enabled: true, disabledReason: null });

    // Failing every 20 hours; an admin "enabling" the enabled endpoint does not restart the streak.
    for (let hours = 20; hours <= 100; hours += 20) {
      clock.advance(20 * 3600);
      await failOneDelivery();
      if (hours === 60) await as(tenant, management().post(path)).send({ enabled: true }).expect(200);
    }
    expect(await enabledState()).toMatchObject({ enabled: true, disabledReason: null });

    // Five days into the streak, the next refused try disables it.
    clock.advance(20 * 3600);
    fast.answerWith(500);
    const second = await ping(tenant, endpoint.id);
    const mail = await smtp.next(ownerEmail);
    expect(mail.subject).toBe('A webhook endpoint of Failing hooks was disabled');
    expect(mail.text).toContain(`Every delivery to ${fast.url} has failed since 2031-03-08 10:00 UTC`);
    expect(await enabledState()).toMatchObject({ enabled: false, disabledReason: 'failing' });
    const audit = await as(tenant, management().get('/api/v2/tenant/audit_event').query({ targetId: endpoint.id })).expect(200);
    expect(audit.body.data.find((event: { action: string }) => event.action === 'webhook_endpoint.disable')).toMatchObject({
      actor: { type: 'sesame', id: null, name: 'Sesame' },
      changes: { enabled: false, reason: 'failing', failingForDays: 5 },
    });

    // Disabled: a test event is refused. Enabled again: the delivery that waited is sent, with no try between.
    expect((await as(tenant, management().post(`${path}/test`)).expect(409)).body.code).toBe('webhook_endpoint_disabled');
    await as(tenant, management().post(path)).send({ enabled: true }).expect(200);
    await until('the waiting delivery arrived', async () => (await statusOf(second)) === 'succeeded', 20_000);
    const delivered = (await as(tenant, management().get(`${path}/delivery`)).expect(200)).body.data.find(
      (delivery: { eventId: string }) => delivery.eventId === second,
    );
    // (Both tries at the same moment of the manual clock: their order in the log is not the point.)
    expect(delivered.attemptLog.map((attempt: { responseStatus: number }) => attempt.responseStatus).sort()).toEqual([200, 500]);
    expect(await enabledState()).toMatchObject({ enabled: true, disabledReason: null });
  });
});
