import { ManualClock } from '@sesame/common';
import { EndpointThrottlerGuard, GlobalIpThrottlerGuard } from '@sesame/throttler';
import { startStack, Stack, StartOptions } from '../support/apps';
import { attemptsOf, authenticateDirect, expectOAuthError, mailQueueConnected, NO_SWEEPS, query } from '../support/direct-auth';
import { uniqueEmail } from '../support/login';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { SmtpSink } from '../support/smtp-sink';
import { ThrowawayRedis } from '../support/throwaway-redis';

const REDIRECT_URI = 'http://localhost:4000/callback';
const ENQUEUE_TIMEOUT_MS = 300;

/** The login flow against a redis-server of this file, which the tests kill and start again. */
function outageFixture(override?: StartOptions['override']) {
  const smtp = new SmtpSink();
  const clock = new ManualClock(new Date('2033-09-01T08:00:00.000Z'));
  const fixture = { smtp, clock } as { smtp: SmtpSink; clock: ManualClock; redis: ThrowawayRedis; stack: Stack; app: ApplicationFixture };

  beforeAll(async () => {
    fixture.redis = await ThrowawayRedis.start();
    await smtp.start();
    fixture.stack = await startStack(smtp.url, {
      clock,
      env: { ...NO_SWEEPS, REDIS_URL: fixture.redis.url, MAIL_ENQUEUE_TIMEOUT_MS: String(ENQUEUE_TIMEOUT_MS), MAIL_RETRY_DELAY_MS: '50' },
      override,
    });
    const tenant = await createTenant(fixture.stack.management.url, 'pro');
    const organization = await createOrganization(fixture.stack.management.url, tenant, { whitelistDomains: ['http://localhost:4000'] });
    fixture.app = await createApplication(fixture.stack.management.url, organization, { type: 'web' });
  });

  afterAll(async () => {
    // The apps close whether Redis is down or not (test/ops/shutdown-redis-away.e2e-spec.ts).
    await fixture.stack?.close();
    await fixture.redis?.kill();
    await smtp.stop();
  });

  return fixture;
}

/**
 * Redis down: authenticate_direct answers 503 while Redis stays down (MAIL_ENQUEUE_TIMEOUT_MS ends
 * the wait for it; the milliseconds that took are not asserted: they measure the machine's load), leaves no live attempt behind and
 * leaves the address's backoff as it was; once Redis is back everything works and a withdrawn
 * attempt never gets an e-mail.
 */
describe('authenticate_direct while Redis is unreachable', () => {
  describe('the mail queue (rate limiters set aside, to reach the enqueue)', () => {
    const passThrough = { canActivate: () => true };
    // The global guard is an APP_GUARD alias of a provider; the endpoint guard is an enhancer (@UseGuards).
    const f = outageFixture((builder) =>
      builder.overrideProvider(GlobalIpThrottlerGuard).useValue(passThrough).overrideGuard(EndpointThrottlerGuard).useValue(passThrough),
    );
    const start = (email: string) => authenticateDirect(f.stack.auth.url, f.app, { email, redirect_uri: REDIRECT_URI, state: 'st' });
    const at = (seconds: number) => new Date(f.clock.now().getTime() + seconds * 1000).toISOString();

    it('503 temporarily_unavailable promptly, no live attempt, backoff restored; after Redis is back exactly one e-mail per address', async () => {
      const { smtp, clock, app } = f;
      const returning = uniqueEmail('returning');
      const first = await start(returning).expect(200);
      await smtp.next(returning);
      clock.advance(15);

      await f.redis.kill();

      const fresh = uniqueEmail('fresh');
      for (const email of [fresh, returning]) {
        const response = await start(email);
        expectOAuthError(response, 503, 'temporarily_unavailable');
        expect(response.headers['retry-after']).toBe('5');
      }

      // Nothing live is left: the attempts were withdrawn (expired, sealed token erased).
      const freshAttempts = await attemptsOf(app.applicationId, fresh);
      expect(freshAttempts.map((attempt) => [attempt.status, attempt.link_token_encrypted])).toEqual([['expired', null]]);
      const returningAttempts = await attemptsOf(app.applicationId, returning);
      expect(returningAttempts.map((attempt) => [attempt.id === first.body.loginAttemptId, attempt.status])).toEqual([
        [true, 'pending'],
        [false, 'expired'],
      ]);
      // The backoff is as it was before the failed requests.
      expect(await query('SELECT * FROM email_throttle WHERE organization_id = $1 AND email = $2', [app.organizationId, fresh])).toEqual(
        [],
      );
      const throttles = await query<{ attempts: number; allowed_date: Date }>(
        'SELECT attempts, allowed_date FROM email_throttle WHERE organization_id = $1 AND email = $2',
        [app.organizationId, returning],
      );
      expect(throttles).toEqual([{ attempts: 1, allowed_date: new Date(first.body.allowedDate) }]);

      await f.redis.restart();
      await Promise.all([mailQueueConnected(f.stack.auth), mailQueueConnected(f.stack.worker)]);

      // Both may ask again at once, with the backoff of their real history.
      const again = await start(fresh).expect(200);
      expect(again.body.allowedDate).toBe(at(15));
      const returningAgain = await start(returning).expect(200);
      expect(returningAgain.body.allowedDate).toBe(at(30));

      expect((await smtp.next(fresh)).text).toContain(again.body.sentence);
      expect((await smtp.next(returning)).text).toContain(returningAgain.body.sentence);
      const sentinel = uniqueEmail('sentinel');
      await start(sentinel).expect(200);
      await smtp.next(sentinel);
      expect(smtp.pending(fresh)).toEqual([]);
      expect(smtp.pending(returning)).toEqual([]);
    });
  });

  describe('as deployed (the rate limiters use the same Redis)', () => {
    const f = outageFixture();
    const start = (email: string) => authenticateDirect(f.stack.auth.url, f.app, { email, redirect_uri: REDIRECT_URI, state: 'st' });

    it('answers 503 promptly with Retry-After and records nothing', async () => {
      await f.redis.kill();
      const email = uniqueEmail('down');
      const response = await start(email);
      expect(response.status).toBe(503);
      expect(Object.keys(response.body).sort()).toEqual(['error', 'error_description']);
      expect(response.headers['retry-after']).toMatch(/^\d+$/);
      expect(await attemptsOf(f.app.applicationId, email)).toEqual([]);
      expect(await query('SELECT * FROM email_throttle WHERE organization_id = $1 AND email = $2', [f.app.organizationId, email])).toEqual(
        [],
      );
    });

    it('the 503 carries the RFC 6749 code temporarily_unavailable', async () => {
      if (f.redis.running) await f.redis.kill();
      const response = await start(uniqueEmail('down-code'));
      expectOAuthError(response, 503, 'temporarily_unavailable');
    });
  });
});
