import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { FILE_REDIS_PREFIX } from '../support/config';
import { authenticateDirect, tokenIn } from '../support/direct-auth';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth, uniqueEmail } from '../support/login';
import { until } from '../containers/support/until';
import { RedisSentinelSet } from '../support/redis-sentinel';
import { codeIn, SmtpSink } from '../support/smtp-sink';
import { userInfo, verify, WEB_REDIRECT_URI } from '../support/tokens';

/**
 * The apps on Redis behind Sentinel (REDIS_SENTINELS instead of REDIS_URL): a primary, a replica
 * and three sentinels of the test's own. The primary is killed mid-login; the sentinels promote
 * the replica, and every Redis user of the apps (the mail queue's producer and worker, the
 * throttler, the long-poll channel, the caches) goes on with the new primary.
 */
describe('Redis behind Sentinel', () => {
  const smtp = new SmtpSink();
  let redis: RedisSentinelSet;
  let stack: Stack;
  let app: ApplicationFixture;

  /**
   * Sends as a client of the documented contract does: a 503 with Retry-After is tried again after
   * that many seconds (twice at most). Around a failover that is what a client may meet.
   */
  async function send(call: () => request.Test): Promise<request.Response> {
    for (let tries = 1; ; tries++) {
      const response = await call();
      const retryAfter = Number(response.headers['retry-after']);
      if (response.status !== 503 || !retryAfter || tries === 3) return response;
      await sleep(retryAfter * 1000);
    }
  }

  /** Opens the link mailed to `email`, exchanges the code and reads the user: the rest of a login. */
  async function finishLogin(email: string, state: string): Promise<void> {
    const token = tokenIn(await smtp.next(email));
    const link = await send(() => request(stack.auth.url).post('/api/v1/login_link').type('form').send({ token }));
    expect(link.status).toBe(303);
    const callback = new URL(link.headers.location);
    expect(callback.searchParams.get('state')).toBe(state);
    const form = { code: callback.searchParams.get('code')!, redirect_uri: WEB_REDIRECT_URI };
    const tokens = await send(() => verify(stack.auth.url, form, basicAuth(app)));
    expect(tokens.status).toBe(200);
    const user = await send(() => userInfo(stack.auth.url, tokens.body.access_token));
    expect(user.status).toBe(200);
    expect(user.body.email).toBe(email);
  }

  async function startLogin(state: string): Promise<string> {
    return (await startDirectLogin(state)).email;
  }

  async function startDirectLogin(state: string): Promise<{ email: string; loginAttemptId: string }> {
    const email = uniqueEmail(state);
    const started = await send(() => authenticateDirect(stack.auth.url, app, { email, redirect_uri: WEB_REDIRECT_URI, state }));
    expect(started.status).toBe(200);
    return { email, loginAttemptId: started.body.loginAttemptId };
  }

  /** GET /v1/login_attempt/{id}?wait=25, held by auth-api until the attempt changes (or 25 s pass); `answered` says whether it has been. */
  function heldWait(loginAttemptId: string) {
    const wait = { answered: false, response: Promise.resolve<request.Response | null>(null) };
    wait.response = request(stack.auth.url)
      .get(`/api/v1/login_attempt/${loginAttemptId}?wait=25`)
      .set('Authorization', basicAuth(app))
      .then((response) => ((wait.answered = true), response));
    return wait;
  }

  beforeAll(async () => {
    await smtp.start();
    redis = await RedisSentinelSet.start();
    stack = await startStack(smtp.url, { env: redis.env });
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['http://localhost:4000'] });
    app = await createApplication(stack.management.url, organization, { type: 'web' });
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
    await smtp.stop();
  });

  it('signs in through the primary the sentinels name', async () => {
    await finishLogin(await startLogin('first'), 'first');
  });

  it('a login started before the primary dies completes after the failover, and the next one too; a status wait held across it answers as soon as its login is used', async () => {
    const email = await startLogin('before');
    // Two status waits held across the failover: the second's login is used after it, the first's never.
    const [untouched, used] = [await startDirectLogin('untouched'), await startDirectLogin('held')];
    const untouchedWait = heldWait(untouched.loginAttemptId);
    const usedWait = heldWait(used.loginAttemptId);
    const channel = (id: string) => `${FILE_REDIS_PREFIX}:login_attempt:${id}`;
    await until('both waits subscribed on the primary', async () => (await redis.subscribers(channel(used.loginAttemptId))) === 1, 10_000);
    await until(
      'both waits subscribed on the primary',
      async () => (await redis.subscribers(channel(untouched.loginAttemptId))) === 1,
      10_000,
    );
    // Their mail jobs are on the replica too (replication is asynchronous: what the primary took in its
    // last moments can be lost in a failover; see docs/operations.md).
    await redis.replicated();

    expect(await redis.killPrimary()).toBe(redis.replica.port);
    // auth-api's subscriber connection follows the sentinels to the new primary and subscribes again
    // there. (A change published before it has is missed: that wait answers at its 25 s, as noted in
    // docs/operations.md.)
    await until(
      'the waits subscribed again on the new primary',
      async () => (await redis.subscribers(channel(used.loginAttemptId), redis.replica.port)) === 1,
      10_000,
    );

    const code = codeIn(await smtp.next(used.email));
    const entered = await send(() =>
      request(stack.auth.url)
        .post('/api/v1/login_code')
        .set('Authorization', basicAuth(app))
        .send({ loginAttemptId: used.loginAttemptId, code }),
    );
    expect(entered.status).toBe(200);
    // The change reached the wait through the new primary: the subscription moved there with the
    // connection. Without it the wait would answer only at its 25 s, after the untouched one's.
    expect((await usedWait.response)!.body.status).toBe('completed');
    expect(untouchedWait.answered).toBe(false);

    await finishLogin(email, 'before');
    await finishLogin(await startLogin('after'), 'after');
    expect((await untouchedWait.response)!.body.status).toBe('pending');
  });
});
