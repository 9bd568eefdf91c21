import Redis from 'ioredis';
import request from 'supertest';
import { RunningApp, startAuthApi, startStack, Stack } from '../support/apps';
import { attemptsOf, authenticateDirect, loginAttemptStatus, loginCode, tokenIn, useLink, V1 } from '../support/direct-auth';
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

/** The radio values of the approval page, in order. */
function choicesOn(html: string): string[] {
  return [...html.matchAll(/name="sentence" value="([^"]*)"/g)].map((match) => match[1]);
}

/**
 * "Sign in on the device where you asked" for direct authentication: the link's approval page,
 * the pick among three phrases, the requesting application collecting its code once through
 * GET /v1/login_attempt/{id}, and `?wait=` answering across two auth-api instances (Redis pub/sub)
 * without holding Postgres connections.
 */
describe('approval from another device (direct authentication)', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  /** A second auth-api instance on the same database and Redis, with a Postgres pool of 2. */
  let second: RunningApp;
  let app: ApplicationFixture;

  async function start(options: { challenge?: string } = {}) {
    const email = uniqueEmail('approve');
    const body = { email, redirect_uri: WEB_REDIRECT_URI, state: 'approve-state', userAgent: USER_AGENT, ...(options.challenge ? { code_challenge: options.challenge, code_challenge_method: 'S256' } : {}) };
    const started = await authenticateDirect(stack.auth.url, app, body).expect(200);
    const mail = await smtp.next(email);
    return { email, loginAttemptId: started.body.loginAttemptId as string, sentence: started.body.sentence as string, token: tokenIn(mail), code: codeIn(mail) };
  }

  const approvalPage = (url: string, token: string) => request(url).get(`${V1}/login_link/approve?token=${token}`);
  const approve = (url: string, form: Record<string, string>) => request(url).post(`${V1}/login_link/approve`).type('form').send(form);

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    second = await startAuthApi({ env: { PUBLIC_BASE_URL: stack.auth.config.http.publicBaseUrl, DATABASE_POOL_SIZE: '2' } });
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, { name: 'Approve Shop', whitelistDomains: ['http://localhost:4000'] });
    app = await createApplication(stack.management.url, organization, { type: 'web' });
  });

  afterAll(async () => {
    await second.close();
    await stack.close();
    await smtp.stop();
  });

  it('the link page offers both ways; the approval page shows where and when, and three phrases, the same on every view', async () => {
    const attempt = await start();
    const link = await request(stack.auth.url).head(`${V1}/login_link?token=${attempt.token}`).expect(200);
    expect(link.headers['content-type']).toBe('text/html; charset=utf-8');
    const page = await request(stack.auth.url).get(`${V1}/login_link?token=${attempt.token}`).expect(200);
    expect(page.text).toContain('Continue here');
    expect(page.text).toContain(`href="login_link/approve?token=${attempt.token}"`);

    const first = await approvalPage(stack.auth.url, attempt.token).expect(200);
    expect(first.text).toContain('<strong id="requested-from">Chrome on Windows</strong>');
    const choices = choicesOn(first.text);
    expect(choices).toHaveLength(3);
    expect(choices).toContain(attempt.sentence);
    await request(stack.auth.url).head(`${V1}/login_link/approve?token=${attempt.token}`).expect(200);
    expect(choicesOn((await approvalPage(second.url, attempt.token).expect(200)).text)).toEqual(choices);
    expect((await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200)).body.status).toBe('pending');
  });

  it('a post without a phrase (a bot) changes nothing; the right phrase approves, and the application collects its code once', async () => {
    const { verifier, challenge } = pkcePair();
    const attempt = await start({ challenge });
    const bot = await approve(stack.auth.url, { token: attempt.token }).expect(400);
    expect(bot.text).toContain('Pick the phrase');
    expect((await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200)).body.status).toBe('pending');

    const done = await approve(stack.auth.url, { token: attempt.token, sentence: attempt.sentence }).expect(200);
    expect(done.headers.location).toBeUndefined();
    expect(done.text).toContain('The other device is now signed in');

    const collected = await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200);
    expect(collected.body).toMatchObject({ status: 'approved', code: expect.any(String), state: 'approve-state', redirectUri: WEB_REDIRECT_URI });
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

  it('a wrong phrase approves nothing and stops the attempt, its link and its code', async () => {
    const attempt = await start();
    const decoy = choicesOn((await approvalPage(stack.auth.url, attempt.token)).text).find((choice) => choice !== attempt.sentence)!;
    const stopped = await approve(stack.auth.url, { token: attempt.token, sentence: decoy }).expect(200);
    expect(stopped.text).toContain('This sign-in was stopped');
    const status = await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200);
    expect(status.body.status).toBe('locked');
    expect(status.body.code).toBeUndefined();
    expect(new URL((await useLink(stack.auth.url, attempt.token).expect(303)).headers.location).searchParams.get('error')).toBe('login_attempt_locked');
    expect((await loginCode(stack.auth.url, app, attempt.loginAttemptId, attempt.code)).body.error).toBe('login_attempt_locked');
    const [row] = await attemptsOf(app.applicationId, attempt.email);
    expect(row.link_token_encrypted).toBeNull();
  });

  it('a cross-site post of the approval form is refused and changes nothing', async () => {
    const attempt = await start();
    await approve(stack.auth.url, { token: attempt.token, sentence: attempt.sentence }).set('Sec-Fetch-Site', 'cross-site').expect(403);
    expect((await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200)).body.status).toBe('pending');
  });

  it('wait= answers within 100 ms of an approval made through the other instance', async () => {
    const attempt = await start();
    const held = loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).query({ wait: 25 });
    const answered = new Promise<{ body: Record<string, unknown>; at: number }>((resolve, reject) =>
      held.then((response) => resolve({ body: response.body, at: performance.now() }), reject),
    );
    // Approve only once the held request listens (one subscriber on the attempt's channel), through the other instance.
    await subscribed(`${stack.auth.config.redis.prefix}:login_attempt:${attempt.loginAttemptId}`);
    expect((await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200)).body.status).toBe('pending');
    const approvedAt = await approve(second.url, { token: attempt.token, sentence: attempt.sentence })
      .expect(200)
      .then(() => performance.now());
    const { body, at } = await answered;
    expect(body).toMatchObject({ status: 'approved', code: expect.any(String) });
    expect(at - approvedAt).toBeLessThan(100);
  });

  it('wait= holds no Postgres connection: twelve held requests on an instance with a pool of 2 leave it answering', async () => {
    const attempts = await Promise.all([start(), start(), start()]);
    const held = attempts.flatMap((attempt) =>
      Array.from({ length: 4 }, () => request(second.url).get(`${V1}/login_attempt/${attempt.loginAttemptId}`).set('Authorization', basicAuth(app)).query({ wait: 25 }).then((response) => response)),
    );
    const quick = await request(second.url).get(`${V1}/login_attempt/${attempts[0].loginAttemptId}`).set('Authorization', basicAuth(app)).timeout(3000).expect(200);
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
