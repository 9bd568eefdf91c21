import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import {
  attemptsOf,
  authenticateDirect,
  expectOAuthError,
  loginAttemptStatus,
  loginCode,
  tokenIn,
  useLink,
  V1,
} from '../support/direct-auth';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { pkcePair, uniqueEmail } from '../support/login';
import { codeIn, SmtpSink } from '../support/smtp-sink';
import { exchangeWeb, userInfo, WEB_REDIRECT_URI } from '../support/tokens';

/** A code other than `code` (same length, every digit changed). */
const wrong = (code: string) => code.replace(/\d/g, (digit) => String((Number(digit) + 1) % 10));

/**
 * The 6-digit code of every login e-mail, typed where the login started (POST /v1/login_code):
 * the same success as the link, once; the code and the link are one credential; five wrong codes
 * lock the attempt and its link.
 */
describe('login codes (direct authentication)', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let app: ApplicationFixture;
  let other: ApplicationFixture;

  async function start(options: { challenge?: string } = {}) {
    const email = uniqueEmail('code');
    const body = {
      email,
      redirect_uri: WEB_REDIRECT_URI,
      state: 'code-state',
      ...(options.challenge ? { code_challenge: options.challenge, code_challenge_method: 'S256' } : {}),
    };
    const started = await authenticateDirect(stack.auth.url, app, body).expect(200);
    const mail = await smtp.next(email);
    return { email, loginAttemptId: started.body.loginAttemptId as string, code: codeIn(mail), token: tokenIn(mail), mail };
  }

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, {
      name: 'Code Shop',
      whitelistDomains: ['http://localhost:4000'],
    });
    app = await createApplication(stack.management.url, organization, { type: 'web' });
    other = await createApplication(stack.management.url, organization, { type: 'web' });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  it('prints the code beside the link in both parts of the e-mail, stored only as an HMAC', async () => {
    const attempt = await start();
    const printed = `${attempt.code.slice(0, 3)} ${attempt.code.slice(3)}`;
    expect(attempt.mail.text).toContain(printed);
    expect(attempt.mail.html).toContain(printed);
    const [row] = (await attemptsOf(app.applicationId, attempt.email)) as unknown as { code_verifier: Buffer; code_failures: number }[];
    expect(row.code_verifier).toHaveLength(32);
    expect(row.code_verifier.toString('utf8')).not.toContain(attempt.code);
    expect(row.code_failures).toBe(0);
  });

  it('signs in with the code: a PKCE-bound authorization code and the state, as JSON; the link is then used', async () => {
    const { verifier, challenge } = pkcePair();
    const attempt = await start({ challenge });
    const typed = `${attempt.code.slice(0, 3)} ${attempt.code.slice(3)}`; // as copied from the e-mail
    const answer = await loginCode(stack.auth.url, app, attempt.loginAttemptId, typed).expect(200);
    expect(answer.body).toEqual({ code: expect.any(String), state: 'code-state', redirectUri: WEB_REDIRECT_URI });
    expect(answer.headers['cache-control']).toBe('no-store');

    const tokens = await exchangeWeb(stack, app, { code: answer.body.code, email: attempt.email, redirectUri: WEB_REDIRECT_URI, verifier });
    const me = await userInfo(stack.auth.url, tokens.access_token).expect(200);
    expect(me.body).toMatchObject({ email: attempt.email, email_verified: true });

    expect((await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200)).body.status).toBe('completed');
    const link = await useLink(stack.auth.url, attempt.token).expect(303);
    expect(new URL(link.headers.location).searchParams.get('error')).toBe('login_link_used');
    expectOAuthError(await loginCode(stack.auth.url, app, attempt.loginAttemptId, attempt.code), 400, 'login_link_used');
  });

  it('a used link makes the code useless', async () => {
    const attempt = await start();
    await useLink(stack.auth.url, attempt.token).expect(303);
    expectOAuthError(await loginCode(stack.auth.url, app, attempt.loginAttemptId, attempt.code), 400, 'login_link_used');
  });

  it('five wrong codes lock the attempt: the right code and the link stop working', async () => {
    const attempt = await start();
    for (let tryNumber = 1; tryNumber <= 4; tryNumber++) {
      expectOAuthError(await loginCode(stack.auth.url, app, attempt.loginAttemptId, wrong(attempt.code)), 400, 'invalid_login_code');
    }
    expectOAuthError(await loginCode(stack.auth.url, app, attempt.loginAttemptId, wrong(attempt.code)), 400, 'login_attempt_locked');
    expectOAuthError(await loginCode(stack.auth.url, app, attempt.loginAttemptId, attempt.code), 400, 'login_attempt_locked');
    expect((await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200)).body.status).toBe('locked');

    const page = await request(stack.auth.url).get(`${V1}/login_link?token=${attempt.token}`).expect(200);
    expect(page.text).toContain('This sign-in was stopped');
    const link = await useLink(stack.auth.url, attempt.token).expect(303);
    expect(new URL(link.headers.location).searchParams.get('error')).toBe('login_attempt_locked');
    const [row] = await attemptsOf(app.applicationId, attempt.email);
    expect(row.link_token_encrypted).toBeNull();
  });

  it('counts concurrent wrong codes exactly: of ten at once, four are wrong and the rest find it locked', async () => {
    const attempt = await start();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => loginCode(stack.auth.url, app, attempt.loginAttemptId, wrong(attempt.code))),
    );
    const errors = answers.map((answer) => answer.body.error as string).sort();
    expect(errors).toEqual([...Array(4).fill('invalid_login_code'), ...Array(6).fill('login_attempt_locked')]);
  });

  it('a link and its code raced together give exactly one success', async () => {
    for (let round = 0; round < 5; round++) {
      const attempt = await start();
      const [link, code] = await Promise.all([
        useLink(stack.auth.url, attempt.token),
        loginCode(stack.auth.url, app, attempt.loginAttemptId, attempt.code),
      ]);
      const linkWon = new URL(link.headers.location).searchParams.has('code');
      const codeWon = code.status === 200;
      expect([linkWon, codeWon].filter(Boolean)).toHaveLength(1);
      if (!codeWon) expectOAuthError(code, 400, 'login_link_used');
      if (!linkWon) expect(new URL(link.headers.location).searchParams.get('error')).toBe('login_link_used');
    }
  });

  it("refuses another application's attempt (404), malformed input (400) and missing credentials (401), counting nothing", async () => {
    const attempt = await start();
    expectOAuthError(await loginCode(stack.auth.url, other, attempt.loginAttemptId, attempt.code), 404, 'not_found');
    expectOAuthError(await loginCode(stack.auth.url, app, attempt.loginAttemptId, '12345'), 400, 'invalid_request');
    expectOAuthError(await loginCode(stack.auth.url, app, 'not-a-uuid', attempt.code), 400, 'invalid_request');
    const anonymous = await request(stack.auth.url)
      .post(`${V1}/login_code`)
      .send({ loginAttemptId: attempt.loginAttemptId, code: attempt.code });
    expectOAuthError(anonymous, 401, 'invalid_client');
    const [row] = (await attemptsOf(app.applicationId, attempt.email)) as unknown as { code_failures: number; status: string }[];
    expect(row).toMatchObject({ code_failures: 0, status: 'pending' });
    await loginCode(stack.auth.url, app, attempt.loginAttemptId, attempt.code).expect(200);
  });
});
