import Redis from 'ioredis';
import request from 'supertest';
import { RunningApp, startAuthApi, startStack, Stack } from '../support/apps';
import { expectApprovalNumberAbsent, twoDigitNumbersIn, wrongApprovalNumber } from '../support/approval';
import { authenticateDirect, loginAttemptStatus, loginCode, query, tokenIn, useLink, V1 } from '../support/direct-auth';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth, pkcePair, uniqueEmail } from '../support/login';
import { codeIn, SmtpSink } from '../support/smtp-sink';
import { exchangeWeb, WEB_REDIRECT_URI } from '../support/tokens';

const USER_AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

/** Resolves once someone subscribes to `channel` (asked of Redis after each command round trip, never on a timer). */
async function subscribed(channel: string): Promise<void> {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    for (;;) {
      const [, count] = (await redis.pubsub('NUMSUB', channel)) as [string, number];
      if (Number(count) > 0) return;
    }
  } finally {
    redis.disconnect();
  }
}

/**
 * "Sign in on the device where you asked" for direct authentication: the link's approval page,
 * the approval number typed on it (number matching), the requesting application collecting its
 * code once through GET /v1/login_attempt/{id}, and `?wait=` answering across two auth-api
 * instances (Redis pub/sub) without holding Postgres connections.
 */
describe('approval from another device (direct authentication)', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  /** A second auth-api instance on the same database and Redis, with a Postgres pool of 2. */
  let second: RunningApp;
  let app: ApplicationFixture;

  async function start(options: { challenge?: string } = {}) {
    const email = uniqueEmail('approve');
    const body = {
      email,
      redirect_uri: WEB_REDIRECT_URI,
      state: 'approve-state',
      userAgent: USER_AGENT,
      userIp: '203.0.113.7',
      ...(options.challenge ? { code_challenge: options.challenge, code_challenge_method: 'S256' } : {}),
    };
    const started = await authenticateDirect(stack.auth.url, app, body).expect(200);
    const mail = await smtp.next(email);
    return {
      email,
      loginAttemptId: started.body.loginAttemptId as string,
      approvalNumber: started.body.approvalNumber as string,
      token: tokenIn(mail),
      code: codeIn(mail),
      mail,
      answer: started.text,
    };
  }

  const approvalPage = (url: string, token: string) => request(url).get(`${V1}/login_link/approve?token=${token}`);
  const approve = (url: string, form: Record<string, string>) => request(url).post(`${V1}/login_link/approve`).type('form').send(form);

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    second = await startAuthApi({ env: { PUBLIC_BASE_URL: stack.auth.config.http.publicBaseUrl, DATABASE_POOL_SIZE: '2' } });
    const tenant = await createTenant(stack.management.url, 'pro');
    // Links of 5 minutes: the e-mail's "10 minutes" could read as an approval number of 10.
    const organization = await createOrganization(stack.management.url, tenant, {
      name: 'Approve Shop',
      whitelistDomains: ['http://localhost:4000'],
      linkTtlSeconds: 300,
    });
    app = await createApplication(stack.management.url, organization, { type: 'web' });
  });

  afterAll(async () => {
    await second.close();
    await stack.close();
    await smtp.stop();
  });

  it('answers the approval number to the requesting application only: it is in no e-mail, page or activity', async () => {
    const attempt = await start();
    expect(attempt.approvalNumber).toMatch(/^[1-9]\d$/);
    expect(twoDigitNumbersIn(attempt.answer)).toContain(attempt.approvalNumber);
    const link = await request(stack.auth.url).get(`${V1}/login_link?token=${attempt.token}`).expect(200);
    const approval = await approvalPage(stack.auth.url, attempt.token).expect(200);
    const status = await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200);
    const activity = await request(stack.management.url)
      .get(`/api/v2/organization/${app.organizationId}/login_attempt`)
      .set('Authorization', `Bearer ${app.apiKey}`)
      .expect(200);
    expectApprovalNumberAbsent(
      [attempt.mail.text, attempt.mail.html, link.text, approval.text, JSON.stringify(status.body), JSON.stringify(activity.body)],
      attempt.approvalNumber,
    );
    // The attempt keeps only an HMAC of it, bound to the link token.
    const [row] = await query<{ approval_verifier: Buffer }>('SELECT approval_verifier FROM login_attempt WHERE id = $1', [
      attempt.loginAttemptId,
    ]);
    expect(row.approval_verifier).toHaveLength(32);
  });

  it('the link page offers both ways; the approval page shows what asked, from where and when, and asks for the number; looking changes nothing', async () => {
    const attempt = await start();
    const link = await request(stack.auth.url).head(`${V1}/login_link?token=${attempt.token}`).expect(200);
    expect(link.headers['content-type']).toBe('text/html; charset=utf-8');
    const page = await request(stack.auth.url).get(`${V1}/login_link?token=${attempt.token}`).expect(200);
    expect(page.text).toContain('Continue here');
    expect(page.text).toContain(`href="login_link/approve?token=${attempt.token}"`);

    const shown = await approvalPage(stack.auth.url, attempt.token).expect(200);
    expect(shown.text).toContain('<dd id="requested-from">Chrome on Windows</dd>');
    expect(shown.text).toContain('<dd id="requested-ip">203.0.113.7</dd>');
    expect(shown.text).toContain('If you did not just ask to sign in on a screen in front of you, do not approve');
    expect(shown.text).toContain('name="number"');
    await request(stack.auth.url).head(`${V1}/login_link/approve?token=${attempt.token}`).expect(200);
    expect((await approvalPage(second.url, attempt.token).expect(200)).text).toBe(shown.text);
    expect((await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200)).body.status).toBe('pending');
  });

  it('a post without a number (a bot) changes nothing; the right number approves, and the application collects its code once', async () => {
    const { verifier, challenge } = pkcePair();
    const attempt = await start({ challenge });
    for (const number of [undefined, '', '4', '100', 'ab']) {
      const bot = await approve(stack.auth.url, { token: attempt.token, ...(number === undefined ? {} : { number }) }).expect(400);
      expect(bot.text).toContain('Type the two-digit number');
    }
    expect((await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200)).body.status).toBe('pending');

    const done = await approve(stack.auth.url, { token: attempt.token, number: ` ${attempt.approvalNumber} ` }).expect(200);
    expect(done.headers.location).toBeUndefined();
    expect(done.text).toContain('Approved — go back to the other device');

    const collected = await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200);
    expect(collected.body).toMatchObject({
      status: 'approved',
      code: expect.any(String),
      state: 'approve-state',
      redirectUri: WEB_REDIRECT_URI,
    });
    expect(collected.headers['cache-control']).toBe('no-store');
    const again = await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200);
    expect(again.body.status).toBe('completed');
    expect(again.body.code).toBeUndefined();
    await exchangeWeb(stack, app, { code: collected.body.code, email: attempt.email, redirectUri: WEB_REDIRECT_URI, verifier });

    // The link and the code were used up by the approval.
    const link = await useLink(stack.auth.url, attempt.token).expect(303);
    expect(new URL(link.headers.location).searchParams.get('error')).toBe('login_link_used');
    expect((await loginCode(stack.auth.url, app, attempt.loginAttemptId, attempt.code)).body.error).toBe('login_link_used');
  });

  it('a wrong number approves nothing and ends approval, even with the right number after it; the link still works', async () => {
    const attempt = await start();
    const wrong = await approve(stack.auth.url, { token: attempt.token, number: wrongApprovalNumber(attempt.approvalNumber) }).expect(200);
    expect(wrong.text).toContain('That number did not match');
    // The page's alert icon is drawn with coordinates (24, 12): they are not numbers a person reads.
    expect(twoDigitNumbersIn(wrong.text)).toEqual([]);
    expect((await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200)).body.status).toBe('pending');

    const late = await approve(stack.auth.url, { token: attempt.token, number: attempt.approvalNumber }).expect(200);
    expect(late.text).toContain('This sign-in can no longer be approved from here');
    const status = await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200);
    expect(status.body).toMatchObject({ status: 'pending' });
    expect(status.body.code).toBeUndefined();
    expect((await approvalPage(stack.auth.url, attempt.token).expect(200)).text).not.toContain('name="number"');
    expect((await request(stack.auth.url).get(`${V1}/login_link?token=${attempt.token}`).expect(200)).text).not.toContain('id="approve"');

    const link = await useLink(stack.auth.url, attempt.token).expect(303);
    expect(new URL(link.headers.location).searchParams.get('code')).toEqual(expect.any(String));
  });

  it('a wrong number leaves the code working where the person is', async () => {
    const attempt = await start();
    await approve(stack.auth.url, { token: attempt.token, number: wrongApprovalNumber(attempt.approvalNumber) }).expect(200);
    const signedIn = await loginCode(stack.auth.url, app, attempt.loginAttemptId, attempt.code).expect(200);
    expect(signedIn.body).toMatchObject({ code: expect.any(String), state: 'approve-state' });
  });

  it('the attempt id alone gets nothing: an attempt is followed only by the application that started it', async () => {
    const attempt = await start();
    const other = await createApplication(stack.management.url, app, { type: 'web' });
    await loginAttemptStatus(stack.auth.url, other, attempt.loginAttemptId).expect(404);
    expect((await loginCode(stack.auth.url, other, attempt.loginAttemptId, attempt.code)).status).toBe(404);
  });

  it('a cross-site post of the approval form is refused and changes nothing', async () => {
    const attempt = await start();
    await approve(stack.auth.url, { token: attempt.token, number: attempt.approvalNumber }).set('Sec-Fetch-Site', 'cross-site').expect(403);
    expect((await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200)).body.status).toBe('pending');
  });

  it('wait= answers as soon as an approval is made through the other instance, not at the end of its wait', async () => {
    const attempt = await start();
    const startedAt = performance.now();
    const held = loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId)
      .query({ wait: 25 })
      .then((response) => response);
    // Approve only once the held request listens (one subscriber on the attempt's channel), through the other instance.
    await subscribed(`${stack.auth.config.redis.prefix}:login_attempt:${attempt.loginAttemptId}`);
    expect((await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200)).body.status).toBe('pending');
    await approve(second.url, { token: attempt.token, number: attempt.approvalNumber }).expect(200);
    const answer = await held;
    expect(answer.body).toMatchObject({ status: 'approved', code: expect.any(String) });
    // Woken by the change: a wait that ran its course would have taken its 25 seconds.
    expect(performance.now() - startedAt).toBeLessThan(20_000);
  });

  it('wait= holds no Postgres connection: twelve held requests on an instance with a pool of 2 leave it answering', async () => {
    const attempts = await Promise.all([start(), start(), start()]);
    const held = attempts.flatMap((attempt) =>
      Array.from({ length: 4 }, () =>
        request(second.url)
          .get(`${V1}/login_attempt/${attempt.loginAttemptId}`)
          .set('Authorization', basicAuth(app))
          .query({ wait: 25 })
          .then((response) => response),
      ),
    );
    const quick = await request(second.url)
      .get(`${V1}/login_attempt/${attempts[0].loginAttemptId}`)
      .set('Authorization', basicAuth(app))
      .timeout(3000)
      .expect(200);
    expect(quick.body.status).toBe('pending');
    for (const attempt of attempts) await useLink(stack.auth.url, attempt.token).expect(303);
    const answers = await Promise.all(held);
    expect(answers.map((answer) => answer.body.status)).toEqual(Array(12).fill('completed'));
  });

  it('refuses a wait outside 0–25 seconds', async () => {
    const attempt = await start();
    for (const wait of ['26', '-1', 'soon']) {
      const refused = await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).query({ wait });
      expect(refused.status).toBe(400);
    }
  });
});
