import { randomUUID } from 'node:crypto';
import { ManualClock } from '@sesame/common';
import { startStack, Stack } from '../support/apps';
import { attemptsOf, authenticateDirect, expectOAuthError, loginAttemptStatus, tokenIn, NO_SWEEPS, useLink } from '../support/direct-auth';
import { uniqueEmail } from '../support/login';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { call } from '../support/management';
import { SmtpSink } from '../support/smtp-sink';

const REDIRECT_URI = 'http://localhost:4000/callback';

/**
 * allowedDate: per organization and normalised address, 15 s · 2^(k-1) after attempt k, capped
 * at 15 minutes, reset by a successful login. Time is a ManualClock shared by the three apps.
 * "Nothing was sent" is proved with a sentinel: the worker takes jobs one at a time in order,
 * so once a later request's mail has arrived, anything queued before it has been handled.
 */
describe('allowedDate and the per-address backoff', () => {
  const smtp = new SmtpSink();
  const clock = new ManualClock(new Date('2031-03-01T09:00:00.000Z'));
  let stack: Stack;
  let app: ApplicationFixture;
  let sibling: ApplicationFixture;
  let elsewhere: ApplicationFixture;

  const at = (seconds: number) => new Date(clock.now().getTime() + seconds * 1000).toISOString();
  const start = (email: string, application: ApplicationFixture = app) =>
    authenticateDirect(stack.auth.url, application, { email, redirect_uri: REDIRECT_URI, state: 'st' });

  /** Requests a link for a fresh address and waits for its e-mail: every job queued before it has been handled. */
  async function drainWithSentinel(): Promise<void> {
    const sentinel = uniqueEmail('sentinel');
    await start(sentinel).expect(200);
    await smtp.next(sentinel);
  }

  beforeAll(async () => {
    await smtp.start();
    // The sweeper acts on the whole (shared) database: with a clock years ahead it must not run here.
    stack = await startStack(smtp.url, { clock, env: NO_SWEEPS });
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['http://localhost:4000'] });
    app = await createApplication(stack.management.url, organization, { type: 'web' });
    sibling = await createApplication(stack.management.url, organization, { type: 'web' });
    const otherOrganization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['http://localhost:4000'] });
    elsewhere = await createApplication(stack.management.url, otherOrganization, { type: 'web' });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  it('answers 429 {allowedDate} with Retry-After before allowedDate, records nothing and sends nothing', async () => {
    const email = uniqueEmail('early');
    const first = await start(email).expect(200);
    expect(first.body.allowedDate).toBe(at(15));
    const firstMail = await smtp.next(email);
    expect(firstMail.text).toContain(first.body.sentence);

    // Same address, spelled differently: the backoff is per normalised address.
    for (const [advance, retryAfter] of [
      [0, '15'],
      [14, '1'],
      [0.5, '1'],
    ] as const) {
      clock.advance(advance);
      const early = await start(`  ${email.toUpperCase()} `);
      expect(early.status).toBe(429);
      expect(early.body).toEqual({ allowedDate: first.body.allowedDate });
      expect(early.headers['retry-after']).toBe(retryAfter);
      expect(early.headers['content-type']).toMatch(/^application\/json/);
    }
    expect(await attemptsOf(app.applicationId, email)).toHaveLength(1);

    await drainWithSentinel();
    expect(smtp.pending(email)).toEqual([]);

    // Exactly at allowedDate the next attempt is accepted, and the wait doubles.
    clock.set(new Date(first.body.allowedDate));
    const second = await start(email).expect(200);
    expect(second.body.allowedDate).toBe(at(30));
    expect(second.body.sentence).not.toBe(first.body.sentence);
    const secondMail = await smtp.next(email);
    expect(secondMail.text).toContain(second.body.sentence);
    expect(await attemptsOf(app.applicationId, email)).toHaveLength(2);
  });

  it('doubles the wait from 15 seconds up to a 15-minute cap, for a new address and an existing user alike', async () => {
    const fresh = uniqueEmail('fresh');
    const known = uniqueEmail('known');
    await call(stack.management.url, 'post', `/organization/${app.organizationId}/user`, app.apiKey, { email: known }).expect(201);
    const waits: Record<string, number[]> = { [fresh]: [], [known]: [] };
    for (let k = 1; k <= 9; k++) {
      for (const email of [fresh, known]) {
        const response = await start(email).expect(200);
        waits[email].push((Date.parse(response.body.allowedDate) - clock.now().getTime()) / 1000);
      }
      clock.advance(Math.min(15 * 2 ** (k - 1), 900));
    }
    expect(waits[fresh]).toEqual([15, 30, 60, 120, 240, 480, 900, 900, 900]);
    expect(waits[known]).toEqual(waits[fresh]);
  });

  it('is reset by a successful login', async () => {
    const email = uniqueEmail('reset');
    await start(email).expect(200);
    await smtp.next(email);
    clock.advance(15);
    const second = await start(email).expect(200);
    expect(second.body.allowedDate).toBe(at(30));
    const mail = await smtp.next(email);

    const before = await loginAttemptStatus(stack.auth.url, app, second.body.loginAttemptId).expect(200);
    expect(before.body.allowedDate).toBe(at(30));

    await useLink(stack.auth.url, tokenIn(mail)).expect(303);
    const after = await loginAttemptStatus(stack.auth.url, app, second.body.loginAttemptId).expect(200);
    expect(after.body).toEqual({ loginAttemptId: second.body.loginAttemptId, status: 'completed', expiresAt: at(600), allowedDate: at(0) });

    const third = await start(email).expect(200);
    expect(third.body.allowedDate).toBe(at(15));
  });

  it('forgets attempts older than a day', async () => {
    const email = uniqueEmail('forget');
    await start(email).expect(200);
    clock.advance(15);
    await start(email).expect(200);
    clock.advance(24 * 3600 + 1);
    const later = await start(email).expect(200);
    expect(later.body.allowedDate).toBe(at(15));
  });

  it('is shared by the applications of one organization, and separate per organization', async () => {
    const email = uniqueEmail('shared');
    const first = await start(email).expect(200);
    const fromSibling = await start(email, sibling);
    expect(fromSibling.status).toBe(429);
    expect(fromSibling.body).toEqual({ allowedDate: first.body.allowedDate });
    const fromElsewhere = await start(email, elsewhere).expect(200);
    expect(fromElsewhere.body.allowedDate).toBe(at(15));
  });

  it('of concurrent requests for one address exactly one creates an attempt and one e-mail is sent', async () => {
    const email = uniqueEmail('race');
    const spellings = [email, email.toUpperCase(), ` ${email}`, email, email.replace('race', 'RACE'), email, email, email];
    const responses = await Promise.all(spellings.map((spelling) => start(spelling)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 429, 429, 429, 429, 429, 429, 429]);
    const winner = responses.find((response) => response.status === 200)!;
    for (const loser of responses.filter((response) => response.status === 429)) {
      expect(loser.body).toEqual({ allowedDate: winner.body.allowedDate });
    }
    const attempts = await attemptsOf(app.applicationId, email);
    expect(attempts.map((attempt) => attempt.id)).toEqual([winner.body.loginAttemptId]);

    const mail = await smtp.next(email);
    expect(mail.text).toContain(winner.body.sentence);
    await drainWithSentinel();
    expect(smtp.pending(email)).toEqual([]);
  });

  it('of concurrent requests for an address whose wait is over, exactly one creates an attempt, and the next wait doubles once', async () => {
    const email = uniqueEmail('rerace');
    const first = await start(email).expect(200);
    await smtp.next(email);
    clock.advance(15);

    const responses = await Promise.all(Array.from({ length: 8 }, () => start(email)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 429, 429, 429, 429, 429, 429, 429]);
    const winner = responses.find((response) => response.status === 200)!;
    expect(winner.body.allowedDate).toBe(at(30));
    for (const loser of responses.filter((response) => response.status === 429)) {
      expect(loser.body).toEqual({ allowedDate: at(30) });
    }
    const attempts = await attemptsOf(app.applicationId, email);
    expect(attempts.map((attempt) => attempt.id).sort()).toEqual([first.body.loginAttemptId, winner.body.loginAttemptId].sort());
    expect((await smtp.next(email)).text).toContain(winner.body.sentence);
    await drainWithSentinel();
    expect(smtp.pending(email)).toEqual([]);
  });

  it('concurrent requests for different addresses are all accepted', async () => {
    const emails = Array.from({ length: 6 }, () => uniqueEmail('parallel'));
    const responses = await Promise.all(emails.map((email) => start(email)));
    expect(responses.map((response) => response.status)).toEqual(emails.map(() => 200));
    expect(new Set(responses.map((response) => response.body.sentence)).size).toBe(emails.length);
    const mails = await Promise.all(emails.map((email) => smtp.next(email)));
    mails.forEach((mail, index) => expect(mail.text).toContain(responses[index].body.sentence));
  });

  describe('a blocked user', () => {
    it('gets the same answer as anyone else, but no e-mail', async () => {
      const blocked = uniqueEmail('blocked');
      const unblocked = uniqueEmail('unblocked');
      await call(stack.management.url, 'post', `/organization/${app.organizationId}/user`, app.apiKey, {
        email: blocked,
        blocked: true,
      }).expect(201);
      await call(stack.management.url, 'post', `/organization/${app.organizationId}/user`, app.apiKey, { email: unblocked }).expect(201);

      const forBlocked = await start(blocked);
      const forUnblocked = await start(unblocked);
      for (const response of [forBlocked, forUnblocked]) {
        expect(response.status).toBe(200);
        expect(response.headers['content-type']).toBe(forUnblocked.headers['content-type']);
        expect(Object.keys(response.body).sort()).toEqual(['allowedDate', 'approvalNumber', 'loginAttemptId', 'sentence', 'token']);
        expect(response.body.approvalNumber).toMatch(/^[1-9][0-9]$/);
        expect(response.body.token).toMatch(/^[0-9a-f]{64}$/);
        expect(response.body.sentence).toMatch(/^[A-Z][a-z]+ [a-z]+ [a-z]+ [a-z]+$/);
        expect(response.body.allowedDate).toBe(at(15));
      }

      const status = await loginAttemptStatus(stack.auth.url, app, forBlocked.body.loginAttemptId).expect(200);
      expect(status.body).toEqual({
        loginAttemptId: forBlocked.body.loginAttemptId,
        status: 'pending',
        expiresAt: at(600),
        allowedDate: at(15),
      });

      const early = await start(blocked);
      expect(early.status).toBe(429);
      expect(early.body).toEqual({ allowedDate: forBlocked.body.allowedDate });

      await smtp.next(unblocked);
      await drainWithSentinel();
      expect(smtp.pending(blocked)).toEqual([]);
      const [attempt] = await attemptsOf(app.applicationId, blocked);
      expect({ suppressed: attempt.mail_suppressed, sent: attempt.mail_sent_at }).toEqual({ suppressed: true, sent: null });
    });
  });

  describe('GET /v1/login_attempt/{loginAttemptId}', () => {
    it('shows status, expiresAt and allowedDate to the application that started the attempt', async () => {
      const email = uniqueEmail('status');
      const started = await start(email).expect(200);
      const status = await loginAttemptStatus(stack.auth.url, app, started.body.loginAttemptId).expect(200);
      expect(status.headers['content-type']).toMatch(/^application\/json/);
      expect(status.body).toEqual({
        loginAttemptId: started.body.loginAttemptId,
        status: 'pending',
        expiresAt: at(600),
        allowedDate: at(15),
      });

      clock.advance(20);
      const later = await loginAttemptStatus(stack.auth.url, app, started.body.loginAttemptId).expect(200);
      expect(later.body).toEqual({
        loginAttemptId: started.body.loginAttemptId,
        status: 'pending',
        expiresAt: at(580),
        allowedDate: at(0),
      });

      clock.advance(580);
      const expired = await loginAttemptStatus(stack.auth.url, app, started.body.loginAttemptId).expect(200);
      expect(expired.body.status).toBe('expired');
    });

    it('is 404 for another application, even of the same organization, exactly like an unknown id', async () => {
      const started = await start(uniqueEmail('foreign')).expect(200);
      const unknown = await loginAttemptStatus(stack.auth.url, sibling, randomUUID());
      expectOAuthError(unknown, 404, 'not_found');
      for (const other of [sibling, elsewhere]) {
        const foreign = await loginAttemptStatus(stack.auth.url, other, started.body.loginAttemptId);
        expect({ status: foreign.status, body: foreign.body }).toEqual({ status: 404, body: unknown.body });
      }
    });

    it('refuses an id that is not a UUID', async () => {
      const response = await loginAttemptStatus(stack.auth.url, app, 'not-a-uuid');
      expectOAuthError(response, 400, 'invalid_request');
    });
  });
});
