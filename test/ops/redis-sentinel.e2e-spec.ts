import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { authenticateDirect, tokenIn } from '../support/direct-auth';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth, uniqueEmail } from '../support/login';
import { RedisSentinelSet } from '../support/redis-sentinel';
import { SmtpSink } from '../support/smtp-sink';
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
    const email = uniqueEmail(state);
    const started = await send(() => authenticateDirect(stack.auth.url, app, { email, redirect_uri: WEB_REDIRECT_URI, state }));
    expect(started.status).toBe(200);
    return email;
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

  it('a login started before the primary dies completes after the failover, and the next one too', async () => {
    const email = await startLogin('before');
    // Its mail job is on the replica too (replication is asynchronous: what the primary took in its
    // last moments can be lost in a failover; see docs/operations.md).
    await redis.replicated();

    expect(await redis.killPrimary()).toBe(redis.replica.port);

    await finishLogin(email, 'before');
    await finishLogin(await startLogin('after'), 'after');
  });
});
