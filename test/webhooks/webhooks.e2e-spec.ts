import { randomUUID } from 'node:crypto';
import { WEBHOOK_EVENT_TYPES } from '@sesame/common';
import { Transactions, UserPasskeys, WebhookEventRepository } from '@sesame/entities';
import { DataSource } from 'typeorm';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import {
  ApplicationFixture,
  createApplication,
  createOrganization,
  createTenant,
  createWebApplication,
  TenantFixture,
} from '../support/fixtures';
import { loginByLink, uniqueEmail } from '../support/login';
import { codeIn, SmtpSink } from '../support/smtp-sink';
import { authenticateDirect, loginCode, tokenIn, useLink } from '../support/direct-auth';
import { emailedLoginWithOffer, registerPasskey } from '../support/passkeys';
import { SoftwareAuthenticator } from '../support/software-authenticator';
import { ThrowawayDatabase } from '../support/throwaway-database';
import { until } from '../containers/support/until';
import { webhookEventCheck } from './event-schema';
import { bodyOf, ReceivedWebhook, WebhookBody, WebhookReceiver } from './receiver';

const CALLBACK = 'http://localhost:4000/callback';
/** A code other than `code` (every digit changed). */
const wrong = (code: string) => code.replace(/\d/g, (digit) => String((Number(digit) + 1) % 10));

const headersOf = (hook: ReceivedWebhook) => ({
  'webhook-id': String(hook.headers['webhook-id']),
  'webhook-timestamp': String(hook.headers['webhook-timestamp']),
  'webhook-signature': String(hook.headers['webhook-signature']),
});

/** Verified with the Standard Webhooks reference library, not with Sesame's code. */
const verified = (secret: string, hook: ReceivedWebhook) => new Webhook(secret).verify(hook.body, headersOf(hook)) as WebhookBody;
const verifiesWith = (secret: string, hook: ReceivedWebhook) => {
  try {
    return !!verified(secret, hook);
  } catch {
    return false;
  }
};

describe('webhooks', () => {
  const smtp = new SmtpSink();
  const receiver = new WebhookReceiver();
  let stack: Stack;
  /** Its own database: the dispatcher takes every event of its database, and other files' endpoints are no receivers of this one. */
  let database: ThrowawayDatabase;
  let tenant: TenantFixture;
  let app: ApplicationFixture;

  beforeAll(async () => {
    await smtp.start();
    await receiver.start();
    database = await ThrowawayDatabase.create();
    stack = await startStack(smtp.url, {
      // Passkeys need a domain name (WebAuthn takes no IP address).
      publicHost: 'localhost',
      env: {
        DATABASE_URL: database.url,
        WEBHOOK_ALLOW_HTTP_LOOPBACK: 'on',
        WEBHOOK_RETRY_DELAYS_MS: '50,50,50',
        WEBHOOK_DISPATCH_INTERVAL_MS: '50',
      },
    });
    tenant = await createTenant(stack.management.url, 'pro');
    app = await createApplication(stack.management.url, await createOrganization(stack.management.url, tenant));
  });

  afterAll(async () => {
    await stack?.close();
    await receiver.stop();
    await smtp.stop();
    await database?.drop();
  });

  const management = () => request(stack.management.url);
  /** The outbox itself: what was recorded, whenever (or whether) it is delivered. */
  const outbox = (sql: string, parameters: unknown[]): Promise<Record<string, string>[]> => database.query(sql, parameters);
  const asOwner = (test: request.Test) => test.set('Authorization', `Bearer ${tenant.apiKey}`);
  const addEndpoint = async (body: Record<string, unknown> = {}) =>
    (
      await asOwner(management().post('/api/v2/tenant/webhook_endpoint'))
        .send({ url: receiver.url, ...body })
        .expect(201)
    ).body as {
      id: string;
      secret: string;
    };

  it('a first login sends user.created and user.signed_in, a later login user.signed_in only; each verifies with standardwebhooks', async () => {
    const endpoint = await addEndpoint({ eventTypes: ['user.created', 'user.signed_in'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const email = uniqueEmail('webhook');
    await loginByLink(stack, smtp, app, { email });
    const ofEmail = (type: string) => (hook: ReceivedWebhook) => bodyOf(hook).type === type && bodyOf(hook).data.user?.email === email;

    const created = verified(endpoint.secret, await receiver.next(ofEmail('user.created')));
    const signedIn = verified(endpoint.secret, await receiver.next(ofEmail('user.signed_in')));
    expect(created.data.user).toEqual({ id: expect.any(String), email, organizationId: app.organizationId });
    expect(signedIn.data).toMatchObject({ user: created.data.user, applicationId: app.applicationId, flow: 'direct' });

    await loginByLink(stack, smtp, app, { email });
    await receiver.next((hook) => ofEmail('user.signed_in')(hook) && hook !== receiver.received.find(ofEmail('user.signed_in')));
    expect(receiver.received.filter(ofEmail('user.created'))).toHaveLength(1);
    await asOwner(management().delete(`/api/v2/tenant/webhook_endpoint/${endpoint.id}`)).expect(204);
  });

  it("five wrong codes send login.locked; the stopped attempt's link, a used link and a blocked user send login.failed with the reason", async () => {
    const endpoint = await addEndpoint({ eventTypes: ['login.failed', 'login.locked'] });
    const start = async (email: string) => {
      const started = await authenticateDirect(stack.auth.url, app, { email, redirect_uri: CALLBACK, state: 'hooks' }).expect(200);
      const mail = await smtp.next(email);
      return { id: started.body.loginAttemptId as string, code: codeIn(mail), token: tokenIn(mail) };
    };
    const ofAttempt = (type: string, id: string) => (hook: ReceivedWebhook) =>
      bodyOf(hook).type === type && bodyOf(hook).data.loginAttemptId === id;
    const reported = { organizationId: app.organizationId, applicationId: app.applicationId, flow: 'direct' };

    const email = uniqueEmail('locked');
    const locked = await start(email);
    for (let wrongCode = 1; wrongCode <= 5; wrongCode++) await loginCode(stack.auth.url, app, locked.id, wrong(locked.code)).expect(400);
    await useLink(stack.auth.url, locked.token).expect(303);
    expect(verified(endpoint.secret, await receiver.next(ofAttempt('login.locked', locked.id))).data).toEqual({
      ...reported,
      loginAttemptId: locked.id,
      email,
      lockedAt: expect.any(String),
    });
    expect(verified(endpoint.secret, await receiver.next(ofAttempt('login.failed', locked.id))).data).toMatchObject({
      loginAttemptId: locked.id,
      email,
      reason: 'locked',
    });

    const used = await start(uniqueEmail('used'));
    for (let press = 1; press <= 4; press++) await useLink(stack.auth.url, used.token).expect(303);
    expect(bodyOf(await receiver.next(ofAttempt('login.failed', used.id))).data.reason).toBe('used');

    // Blocked between the e-mail and its link.
    const blockedEmail = uniqueEmail('blocked-login');
    const users = `/api/v2/organization/${app.organizationId}/user`;
    const user = (await asOwner(management().post(users)).send({ email: blockedEmail }).expect(201)).body as { id: string };
    const blocked = await start(blockedEmail);
    await asOwner(management().post(`${users}/${user.id}`))
      .send({ blocked: true })
      .expect(200);
    await useLink(stack.auth.url, blocked.token).expect(303);
    expect(bodyOf(await receiver.next(ofAttempt('login.failed', blocked.id))).data).toMatchObject({ reason: 'blocked', ...reported });

    // The outbox: wrong codes before the fifth are no event; an attempt's failure is one event however often it is refused.
    const recorded = await outbox(
      `SELECT type, payload->>'loginAttemptId' AS attempt FROM webhook_event WHERE type LIKE 'login.%' AND payload->>'loginAttemptId' = ANY($1)`,
      [[locked.id, used.id]],
    );
    expect(recorded.map((row) => `${row.type} ${row.attempt}`).sort()).toEqual(
      [`login.failed ${locked.id}`, `login.failed ${used.id}`, `login.locked ${locked.id}`].sort(),
    );
    await loginCode(stack.auth.url, app, locked.id, locked.code).expect(400);
    // Whoever holds only the attempt id (another application's credentials, or none) is refused and writes nothing.
    const stranger = await createWebApplication(stack.management.url);
    await loginCode(stack.auth.url, stranger, locked.id, locked.code).expect(404);
    await loginCode(stack.auth.url, stranger, used.id, '000000').expect(404);
    await request(stack.auth.url).post('/api/v1/login_code').send({ loginAttemptId: used.id, code: '000000' }).expect(401);
    expect(await outbox(`SELECT 1 FROM webhook_event WHERE payload->>'loginAttemptId' = $1`, [locked.id])).toHaveLength(2);
    expect(
      await outbox(`SELECT 1 FROM webhook_event WHERE type LIKE 'login.%' AND payload->>'loginAttemptId' = $1`, [used.id]),
    ).toHaveLength(1);
    await asOwner(management().delete(`/api/v2/tenant/webhook_endpoint/${endpoint.id}`)).expect(204);
  });

  it('blocking, unblocking and deleting a user send user.blocked, user.unblocked and user.deleted; a rename sends nothing', async () => {
    const endpoint = await addEndpoint({ eventTypes: ['user.blocked', 'user.unblocked', 'user.deleted'] });
    const users = `/api/v2/organization/${app.organizationId}/user`;
    const email = uniqueEmail('blocked');
    const user = (await asOwner(management().post(users)).send({ email }).expect(201)).body as { id: string };
    const ofUser = (type: string) => (hook: ReceivedWebhook) => bodyOf(hook).type === type && bodyOf(hook).data.user?.id === user.id;

    await asOwner(management().post(`${users}/${user.id}`))
      .send({ blocked: true })
      .expect(200);
    await asOwner(management().post(`${users}/${user.id}`))
      .send({ name: 'Renamed', blocked: true })
      .expect(200);
    await asOwner(management().post(`${users}/${user.id}`))
      .send({ blocked: false })
      .expect(200);
    await asOwner(management().delete(`${users}/${user.id}`)).expect(204);

    const deleted = verified(endpoint.secret, await receiver.next(ofUser('user.deleted')));
    expect(deleted.data.user).toEqual({ id: user.id, email, organizationId: app.organizationId });
    await receiver.next(ofUser('user.blocked'));
    await receiver.next(ofUser('user.unblocked'));
    const recorded = await outbox(`SELECT type FROM webhook_event WHERE payload->'user'->>'id' = $1 ORDER BY created_at`, [user.id]);
    expect(recorded.map((row) => row.type)).toEqual(['user.blocked', 'user.unblocked', 'user.deleted']);
    await asOwner(management().delete(`/api/v2/tenant/webhook_endpoint/${endpoint.id}`)).expect(204);
  });

  it('creating, changing and deleting an organization send organization.created, .updated (not for a save that changes nothing) and .deleted', async () => {
    const endpoint = await addEndpoint({ eventTypes: ['organization.created', 'organization.updated', 'organization.deleted'] });
    // Another organization's endpoint (what that organization's admin controls) learns nothing of this one.
    const elsewhere = await addEndpoint({
      organizationId: app.organizationId,
      eventTypes: ['organization.created', 'organization.updated', 'organization.deleted'],
    });
    const created = (
      await asOwner(management().post('/api/v2/organization'))
        .send({ name: 'Hooked org', whitelistDomains: ['https://hooked.example.com'] })
        .expect(201)
    ).body as { id: string };
    const path = `/api/v2/organization/${created.id}`;
    /** The organization's event of this type, as delivered to the endpoint with this secret. */
    const ofOrganization = (type: string, secret: string) => (hook: ReceivedWebhook) =>
      bodyOf(hook).type === type &&
      (bodyOf(hook).data.organization as { id: string } | undefined)?.id === created.id &&
      verifiesWith(secret, hook);
    // Limited to the organization: it gets the organization's own events, and goes with the organization.
    const limited = await addEndpoint({ organizationId: created.id, eventTypes: ['organization.updated', 'organization.deleted'] });
    await asOwner(management().post(path)).send({ autologin: true, passkeys: 'required' }).expect(200);
    await asOwner(management().post(path)).send({ autologin: true }).expect(200);
    await receiver.next(ofOrganization('organization.updated', limited.secret));
    await asOwner(management().delete(path)).expect(204);

    const delivered = async (type: string) => verified(endpoint.secret, await receiver.next(ofOrganization(type, endpoint.secret))).data;
    const settings = { id: created.id, name: 'Hooked org', whitelistDomains: ['https://hooked.example.com'], linkTtlSeconds: 600 };
    expect(await delivered('organization.created')).toEqual({ organization: { ...settings, autologin: false, passkeys: 'offered' } });
    const changed = { organization: { ...settings, autologin: true, passkeys: 'required' } };
    expect(await delivered('organization.updated')).toEqual(changed);
    expect(await delivered('organization.deleted')).toEqual(changed);
    const recorded = await outbox(`SELECT type FROM webhook_event WHERE payload->'organization'->>'id' = $1 ORDER BY created_at`, [
      created.id,
    ]);
    // The save that changed nothing recorded nothing; the limited endpoint was deleted with the organization, not told.
    expect(recorded.map((row) => row.type)).toEqual(['organization.created', 'organization.updated', 'organization.deleted']);
    expect(receiver.received.filter((hook) => verifiesWith(limited.secret, hook)).map((hook) => bodyOf(hook).type)).toEqual([
      'organization.updated',
    ]);
    // Deliveries are made for every endpoint when an event is dispatched: the last one arrived, so none is still to come.
    const toElsewhere = await asOwner(management().get(`/api/v2/tenant/webhook_endpoint/${elsewhere.id}/delivery`)).expect(200);
    expect(toElsewhere.body.data).toEqual([]);
    await asOwner(management().delete(`/api/v2/tenant/webhook_endpoint/${elsewhere.id}`)).expect(204);
    await asOwner(management().get(`/api/v2/tenant/webhook_endpoint/${limited.id}`)).expect(404);
    await asOwner(management().delete(`/api/v2/tenant/webhook_endpoint/${endpoint.id}`)).expect(204);
  });

  it('registering a passkey after an e-mailed login sends passkey.registered, removing it passkey.removed', async () => {
    const endpoint = await addEndpoint({ eventTypes: ['passkey.registered', 'passkey.removed'] });
    const origin = new URL(stack.auth.config.http.publicBaseUrl).origin;
    const offer = await emailedLoginWithOffer(stack.auth.url, smtp, app);
    await registerPasskey(stack.auth.url, origin, new SoftwareAuthenticator(origin), offer);
    const ofUser = (type: string) => (hook: ReceivedWebhook) => bodyOf(hook).type === type && bodyOf(hook).data.user?.email === offer.email;
    const registered = verified(endpoint.secret, await receiver.next(ofUser('passkey.registered')));
    const user = registered.data.user as { id: string };
    const passkey = registered.data.passkey as { id: string };
    const owner = { tenantId: tenant.tenantId, organizationId: app.organizationId, userId: user.id };
    await stack.auth.app.get(UserPasskeys).remove(owner, passkey.id, null, new Date());
    const removed = verified(endpoint.secret, await receiver.next(ofUser('passkey.removed')));
    expect(removed.data).toMatchObject({ user: { id: user.id, email: offer.email, organizationId: app.organizationId }, passkey });
    await asOwner(management().delete(`/api/v2/tenant/webhook_endpoint/${endpoint.id}`)).expect(204);
  });

  it('member, API key and application secret changes send member.*, api_key.* and application.secret_rotated, never a key or secret', async () => {
    const endpoint = await addEndpoint({
      eventTypes: [
        'member.added',
        'member.role_changed',
        'member.removed',
        'api_key.created',
        'api_key.revoked',
        'application.secret_rotated',
      ],
    });
    const email = uniqueEmail('member');
    const member = (await asOwner(management().post('/api/v2/tenant/member')).send({ email, role: 'viewer' }).expect(201)).body as {
      id: string;
    };
    await asOwner(management().post(`/api/v2/tenant/member/${member.id}`))
      .send({ role: 'admin' })
      .expect(200);
    await asOwner(management().delete(`/api/v2/tenant/member/${member.id}`)).expect(204);
    const key = (await asOwner(management().post('/api/v2/tenant/api_key')).send({ name: 'Hooked', role: 'viewer' }).expect(201)).body as {
      id: string;
      key: string;
    };
    await asOwner(management().delete(`/api/v2/tenant/api_key/${key.id}`)).expect(204);
    await asOwner(management().delete(`/api/v2/tenant/api_key/${key.id}`)).expect(204);
    const rotated = await asOwner(
      management().post(`/api/v2/organization/${app.organizationId}/application/${app.applicationId}/rotate_secret`),
    )
      .send({})
      .expect(200);

    type Ids = { member?: { id: string }; apiKey?: { id: string }; application?: { id: string } };
    const ofType = (type: string, match: (data: Ids) => boolean) => (hook: ReceivedWebhook) =>
      bodyOf(hook).type === type && match(bodyOf(hook).data as Ids);
    const ofMember = (type: string) => ofType(type, (data) => data.member?.id === member.id);
    const ofKey = (type: string) => ofType(type, (data) => data.apiKey?.id === key.id);
    const added = verified(endpoint.secret, await receiver.next(ofMember('member.added')));
    expect(added.data).toEqual({ member: { id: member.id, email, role: 'viewer' }, invitedBy: 'Initial key' });
    expect(bodyOf(await receiver.next(ofMember('member.role_changed'))).data).toEqual({
      member: { id: member.id, email, role: 'admin' },
      previousRole: 'viewer',
    });
    expect(bodyOf(await receiver.next(ofMember('member.removed'))).data).toEqual({ member: { id: member.id, email, role: 'admin' } });
    const reportedKey = { id: key.id, name: 'Hooked', prefix: expect.any(String), role: 'viewer', organizationId: null };
    expect(bodyOf(await receiver.next(ofKey('api_key.created'))).data).toEqual({ apiKey: reportedKey });
    expect(bodyOf(await receiver.next(ofKey('api_key.revoked'))).data).toEqual({ apiKey: reportedKey });
    const rotation = bodyOf(
      await receiver.next(ofType('application.secret_rotated', (data) => data.application?.id === app.applicationId)),
    );
    expect(rotation.data).toEqual({
      application: { id: app.applicationId, clientId: app.clientId, name: expect.any(String), organizationId: app.organizationId },
      previousSecretExpiresAt: expect.any(String),
      accessTokensRevoked: false,
    });

    // Revoking twice reported once; neither the key nor a client secret is ever in a body.
    expect(receiver.received.filter(ofKey('api_key.revoked'))).toHaveLength(1);
    const bodies = receiver.received.map((hook) => hook.body).join('\n');
    expect(bodies).not.toContain(key.key);
    expect(bodies).not.toContain(rotated.body.clientSecret);
    await asOwner(management().delete(`/api/v2/tenant/webhook_endpoint/${endpoint.id}`)).expect(204);
  });

  it('a receiver answering 500 twice then 200 gets three tries with one webhook-id, and the deliveries list shows them', async () => {
    const endpoint = await addEndpoint();
    receiver.answerWith(500, 500);
    const ping = (await asOwner(management().post(`/api/v2/tenant/webhook_endpoint/${endpoint.id}/test`)).expect(202)).body as {
      eventId: string;
    };
    const ofPing = (hook: ReceivedWebhook) => hook.headers['webhook-id'] === ping.eventId;
    await receiver.next((hook) => ofPing(hook) && hook.answered === 200);

    const tries = receiver.received.filter(ofPing);
    expect(tries.map((hook) => hook.answered)).toEqual([500, 500, 200]);
    for (const hook of tries) expect(verified(endpoint.secret, hook).type).toBe('ping');
    // The answer arrives before the worker records it: wait for the record.
    const delivery = async () =>
      (await asOwner(management().get(`/api/v2/tenant/webhook_endpoint/${endpoint.id}/delivery`)).expect(200)).body.data.find(
        (d: { eventId: string }) => d.eventId === ping.eventId,
      );
    await until('the delivery is recorded', async () => (await delivery()).status === 'succeeded', 20_000);
    expect(await delivery()).toMatchObject({ type: 'ping', status: 'succeeded', attempts: 3 });
    const { attemptLog } = await delivery();
    expect(attemptLog.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([200, 500, 500]);
    expect(attemptLog[1].responseExcerpt).toBe('not now');
    await asOwner(management().delete(`/api/v2/tenant/webhook_endpoint/${endpoint.id}`)).expect(204);
  });

  it('an event is redelivered to every endpoint it reached, with its webhook-id; a second time while they are pending answers 409; another tenant gets 404', async () => {
    const endpoints = [await addEndpoint({ eventTypes: ['user.created'] }), await addEndpoint({ eventTypes: ['user.created'] })];
    const email = uniqueEmail('redeliver-event');
    await loginByLink(stack, smtp, app, { email });
    const ofEvent = (hook: ReceivedWebhook) => bodyOf(hook).type === 'user.created' && bodyOf(hook).data.user?.email === email;
    const arrivals = () => receiver.received.filter(ofEvent);
    const signedFor = (hook: ReceivedWebhook) =>
      endpoints.filter((endpoint) => {
        try {
          return verified(endpoint.secret, hook) !== undefined;
        } catch {
          return false;
        }
      });
    await until('both endpoints got the event', async () => arrivals().length === 2, 20_000);
    const eventId = String(arrivals()[0].headers['webhook-id']);
    const deliveryOf = async (endpointId: string) =>
      (await asOwner(management().get(`/api/v2/tenant/webhook_endpoint/${endpointId}/delivery`)).expect(200)).body.data.find(
        (delivery: { eventId: string }) => delivery.eventId === eventId,
      ) as { id: string; status: string };
    await until(
      'both deliveries are recorded',
      async () => {
        for (const endpoint of endpoints) if ((await deliveryOf(endpoint.id))?.status !== 'succeeded') return false;
        return true;
      },
      20_000,
    );
    const redeliver = `/api/v2/tenant/webhook_event/${eventId}/redeliver`;
    const other = await createTenant(stack.management.url, 'pro');
    expect((await management().post(redeliver).set('Authorization', `Bearer ${other.apiKey}`).expect(404)).body.code).toBe('not_found');

    // Disabled, the redelivered deliveries wait: a second redelivery finds them all pending.
    for (const endpoint of endpoints)
      await asOwner(management().post(`/api/v2/tenant/webhook_endpoint/${endpoint.id}`))
        .send({ enabled: false })
        .expect(200);
    const answer = (await asOwner(management().post(redeliver)).expect(202)).body as { redelivered: { endpointId: string }[] };
    expect(answer).toEqual({
      eventId,
      redelivered: expect.arrayContaining(
        await Promise.all(
          endpoints.map(async (endpoint) => ({ deliveryId: (await deliveryOf(endpoint.id)).id, endpointId: endpoint.id, redeliveries: 1 })),
        ),
      ),
      stillPending: 0,
    });
    expect(answer.redelivered).toHaveLength(2);
    expect((await asOwner(management().post(redeliver)).expect(409)).body.code).toBe('webhook_delivery_pending');

    for (const endpoint of endpoints)
      await asOwner(management().post(`/api/v2/tenant/webhook_endpoint/${endpoint.id}`))
        .send({ enabled: true })
        .expect(200);
    await until('both endpoints got it again', async () => arrivals().length === 4, 20_000);
    expect(new Set(arrivals().map((hook) => hook.headers['webhook-id']))).toEqual(new Set([eventId]));
    expect(new Set(arrivals().map((hook) => hook.body))).toHaveProperty('size', 1);
    // Each endpoint got it twice, signed with its own secret.
    for (const endpoint of endpoints) expect(arrivals().filter((hook) => signedFor(hook).includes(endpoint))).toHaveLength(2);
    for (const endpoint of endpoints) await asOwner(management().delete(`/api/v2/tenant/webhook_endpoint/${endpoint.id}`)).expect(204);
  });

  it('a failed delivery is redelivered with the same webhook-id and body; one still pending answers 409; re-enabling sends what waited', async () => {
    const endpoint = await addEndpoint();
    const path = `/api/v2/tenant/webhook_endpoint/${endpoint.id}`;
    receiver.answerWith(500, 500, 500, 500);
    const ping = (await asOwner(management().post(`${path}/test`)).expect(202)).body as { eventId: string };
    const ofPing = (hook: ReceivedWebhook) => hook.headers['webhook-id'] === ping.eventId;
    const delivery = async () =>
      (await asOwner(management().get(`${path}/delivery`)).expect(200)).body.data.find(
        (d: { eventId: string }) => d.eventId === ping.eventId,
      ) as { id: string; status: string; attempts: number; requestBody: string };
    await until('the delivery failed', async () => (await delivery())?.status === 'failed', 20_000);
    const failed = await delivery();
    expect(receiver.received.filter(ofPing)).toHaveLength(4);
    expect(failed.requestBody).toBe(receiver.received.find(ofPing)!.body);

    // Disabled, the redelivered delivery waits: a second redelivery is refused while it is pending.
    await asOwner(management().post(path)).send({ enabled: false }).expect(200);
    const redeliver = `${path}/delivery/${failed.id}/redeliver`;
    expect((await asOwner(management().post(redeliver)).expect(202)).body).toEqual({ deliveryId: failed.id, redeliveries: 1 });
    expect((await asOwner(management().post(redeliver)).expect(409)).body.code).toBe('webhook_delivery_pending');
    const other = await createTenant(stack.management.url, 'pro');
    await management().post(redeliver).set('Authorization', `Bearer ${other.apiKey}`).expect(404);

    await asOwner(management().post(path)).send({ enabled: true }).expect(200);
    const redelivered = await receiver.next((hook) => ofPing(hook) && hook.answered === 200);
    expect(verified(endpoint.secret, redelivered).type).toBe('ping');
    expect(redelivered.body).toBe(failed.requestBody);
    await until('the redelivery succeeded', async () => (await delivery()).status === 'succeeded', 20_000);
    expect(await delivery()).toMatchObject({ status: 'succeeded', attempts: 5 });
    expect(receiver.received.filter(ofPing)).toHaveLength(5);
    await asOwner(management().delete(path)).expect(204);
  });

  it("an endpoint limited to one organization gets its test ping, and none of another organization's events", async () => {
    const other = await createApplication(stack.management.url, await createOrganization(stack.management.url, tenant));
    const endpoint = await addEndpoint({ organizationId: other.organizationId, eventTypes: ['user.created'] });
    const ping = (await asOwner(management().post(`/api/v2/tenant/webhook_endpoint/${endpoint.id}/test`)).expect(202)).body as {
      eventId: string;
    };
    expect(verified(endpoint.secret, await receiver.next((hook) => hook.headers['webhook-id'] === ping.eventId)).type).toBe('ping');
    const email = uniqueEmail('elsewhere');
    await loginByLink(stack, smtp, app, { email });
    const mine = uniqueEmail('mine');
    await loginByLink(stack, smtp, other, { email: mine });
    const ofEmail = (address: string) => (hook: ReceivedWebhook) => bodyOf(hook).data.user?.email === address;
    await receiver.next((hook) => ofEmail(mine)(hook) && bodyOf(hook).type === 'user.created');
    // The other organization's login came first and was dispatched no later: it has no delivery here.
    const list = await asOwner(management().get(`/api/v2/tenant/webhook_endpoint/${endpoint.id}/delivery`)).expect(200);
    expect(list.body.data.map((delivery: { type: string }) => delivery.type).sort()).toEqual(['ping', 'user.created']);
    expect(receiver.received.filter(ofEmail(email))).toHaveLength(0);
    await asOwner(management().delete(`/api/v2/tenant/webhook_endpoint/${endpoint.id}`)).expect(204);
  });

  it('after a rotation both secrets sign during the overlap: a receiver with either verifies', async () => {
    const endpoint = await addEndpoint();
    const rotated = (await asOwner(management().post(`/api/v2/tenant/webhook_endpoint/${endpoint.id}/rotate_secret`)).expect(200)).body as {
      secret: string;
      previousSecretExpiresAt: string;
    };
    expect(rotated.secret).not.toBe(endpoint.secret);
    // The overlap: a day by default.
    expect(Math.round((Date.parse(rotated.previousSecretExpiresAt) - Date.now()) / 3600_000)).toBe(24);
    const ping = (await asOwner(management().post(`/api/v2/tenant/webhook_endpoint/${endpoint.id}/test`)).expect(202)).body as {
      eventId: string;
    };
    const hook = await receiver.next((received) => received.headers['webhook-id'] === ping.eventId);
    expect(String(hook.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(rotated.secret, hook).type).toBe('ping');
    expect(verified(endpoint.secret, hook).type).toBe('ping');
    expect(() => verified(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, hook)).toThrow();
    await asOwner(management().delete(`/api/v2/tenant/webhook_endpoint/${endpoint.id}`)).expect(204);
  });

  it.each([
    ['plain http to another host', 'http://example.com/hooks'],
    ['a private address', 'https://10.0.0.8/hooks'],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['an IPv6 unique local address', 'https://[fd00::1]/hooks'],
    ['an IPv4-mapped private address', 'https://[::ffff:192.168.1.1]/hooks'],
    ['credentials in the URL', 'https://user:pass@example.com/hooks'],
    ['another scheme', 'ftp://example.com/hooks'],
  ])('refuses %s with 400 webhook_url_not_allowed, and adds nothing', async (_, url) => {
    const before = (await asOwner(management().get('/api/v2/tenant/webhook_endpoint')).expect(200)).body.data.length;
    const refused = await asOwner(management().post('/api/v2/tenant/webhook_endpoint')).send({ url }).expect(400);
    expect(refused.body.code).toBe('webhook_url_not_allowed');
    expect((await asOwner(management().get('/api/v2/tenant/webhook_endpoint')).expect(200)).body.data).toHaveLength(before);
  });

  it('an event written in a transaction that is rolled back is never sent', async () => {
    const endpoint = await addEndpoint();
    const transactions = stack.auth.app.get(Transactions);
    const events = stack.auth.app.get(WebhookEventRepository);
    const record = (marker: string) => (manager: Parameters<Parameters<Transactions['run']>[0]>[0]) =>
      events.record(manager, { type: 'user.blocked', scope: { tenantId: tenant.tenantId }, data: { marker } });
    await expect(
      transactions.run(async (manager) => {
        await record('rolled back')(manager);
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    await transactions.run(record('committed'));

    await receiver.next((hook) => bodyOf(hook).data.marker === 'committed');
    const outbox = await stack.auth.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM webhook_event WHERE payload->>'marker' = 'rolled back'`);
    expect(outbox[0].n).toBe(0);
    expect(receiver.received.filter((hook) => bodyOf(hook).data.marker === 'rolled back')).toHaveLength(0);
    await asOwner(management().delete(`/api/v2/tenant/webhook_endpoint/${endpoint.id}`)).expect(204);
  });

  it("every body delivered in this file matches WebhookEvent of the served OpenAPI document, its type's schema, no field more", async () => {
    const problemsOf = await webhookEventCheck(stack.management.url);
    const types = new Set<string>();
    for (const hook of receiver.received) {
      const body = bodyOf(hook);
      if (body.data.marker) continue; // the test events written by hand
      types.add(body.type);
      expect([body.type, problemsOf(body)]).toEqual([body.type, []]);
    }
    expect([...types].sort()).toEqual([...WEBHOOK_EVENT_TYPES, 'ping'].sort());
    const ping = { type: 'ping', timestamp: new Date().toISOString(), data: { endpointId: randomUUID() } };
    expect(problemsOf(ping)).toEqual([]);
    expect(problemsOf({ ...ping, data: { ...ping.data, unnamed: 1 } })).not.toEqual([]);
    expect(problemsOf({ ...ping, type: 'user.created' })).not.toEqual([]);
  });

  it("is the tenant's own: another tenant's key sees 404; the secret is never read back", async () => {
    const endpoint = await addEndpoint();
    const other = await createTenant(stack.management.url, 'pro');
    const path = `/api/v2/tenant/webhook_endpoint/${endpoint.id}`;
    await management().get(path).set('Authorization', `Bearer ${other.apiKey}`).expect(404);
    await management().post(`${path}/test`).set('Authorization', `Bearer ${other.apiKey}`).expect(404);
    await management().delete(path).set('Authorization', `Bearer ${other.apiKey}`).expect(404);
    await management().post(path).set('Authorization', `Bearer ${other.apiKey}`).send({ enabled: false }).expect(404);
    await management().post(`${path}/rotate_secret`).set('Authorization', `Bearer ${other.apiKey}`).expect(404);
    await management().get(`${path}/delivery`).set('Authorization', `Bearer ${other.apiKey}`).expect(404);
    expect((await asOwner(management().get(path)).expect(200)).body.enabled).toBe(true);
    // A URL refused on create is refused on update too, and changes nothing.
    const refused = await asOwner(management().post(path)).send({ url: 'https://169.254.169.254/latest' }).expect(400);
    expect(refused.body.code).toBe('webhook_url_not_allowed');
    expect((await asOwner(management().get(path)).expect(200)).body.url).toBe(receiver.url);
    const read = await asOwner(management().get(path)).expect(200);
    expect(JSON.stringify(read.body)).not.toContain('whsec_');
    await asOwner(management().delete(path)).expect(204);
    const audit = await asOwner(management().get('/api/v2/tenant/audit_event').query({ targetId: endpoint.id })).expect(200);
    expect(audit.body.data.map((event: { action: string }) => event.action).sort()).toEqual([
      'webhook_endpoint.create',
      'webhook_endpoint.delete',
    ]);
    expect(JSON.stringify(audit.body)).not.toContain('whsec_');
  });

  it('a tenant has at most 20 endpoints: the 21st is refused with 409 and nothing is added', async () => {
    const crowded = await createTenant(stack.management.url, 'pro');
    const add = () =>
      management().post('/api/v2/tenant/webhook_endpoint').set('Authorization', `Bearer ${crowded.apiKey}`).send({ url: receiver.url });
    for (let made = 1; made <= 20; made++) await add().expect(201);
    expect((await add().expect(409)).body.code).toBe('webhook_endpoint_limit');
    const list = await management()
      .get('/api/v2/tenant/webhook_endpoint')
      .query({ limit: 100 })
      .set('Authorization', `Bearer ${crowded.apiKey}`)
      .expect(200);
    expect(list.body.data).toHaveLength(20);
  });
});
