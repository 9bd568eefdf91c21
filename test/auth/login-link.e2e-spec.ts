import { randomBytes } from 'node:crypto';
import { ManualClock } from '@sesame/common';
import request, { Response } from 'supertest';
import { startStack, Stack } from '../support/apps';
import {
  attemptsOf,
  authenticateDirect,
  loginAttemptStatus,
  NO_SWEEPS,
  query,
  sha256Hex,
  tokenIn,
  useLink,
  V1,
} from '../support/direct-auth';
import { uniqueEmail } from '../support/login';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { call } from '../support/management';
import { SmtpSink } from '../support/smtp-sink';

const REDIRECT_URI = 'http://localhost:4000/callback';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const CODE_TTL_SECONDS = 120;

/**
 * Never cached or framed. No referrer leaves Sesame; the link page itself allows same-origin
 * referrers, so that its Continue post carries Sesame's origin (browsers send Origin "null" under no-referrer).
 */
function expectPageHeaders(response: Response, referrerPolicy = 'no-referrer'): void {
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['referrer-policy']).toBe(referrerPolicy);
  expect(response.headers['x-frame-options']).toBe('DENY');
}

function expectHtmlPage(response: Response, referrerPolicy?: string): void {
  expectPageHeaders(response, referrerPolicy);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  const csp = response.headers['content-security-policy'];
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toMatch(/script-src/);
}

/** The callback a 303 sends the browser to, as an object (the query's names are kept in order). */
function callback(response: Response) {
  expect(response.status).toBe(303);
  expectPageHeaders(response);
  const location = new URL(response.headers.location);
  return { target: `${location.origin}${location.pathname}`, params: [...location.searchParams.entries()], location };
}

/**
 * The e-mailed link: GET and HEAD show it and never use it; POST uses it once, atomically, and
 * redirects back to the application with a code (or an error). Time is a ManualClock.
 */
describe('login link pages', () => {
  const smtp = new SmtpSink();
  const clock = new ManualClock(new Date('2032-06-01T12:00:00.000Z'));
  let stack: Stack;
  let app: ApplicationFixture;
  let strict: ApplicationFixture;
  let shortLived: ApplicationFixture;

  const at = (seconds: number) => new Date(clock.now().getTime() + seconds * 1000);

  /** Starts an attempt and returns it with the token of its e-mail. */
  async function startAttempt(options: { app?: ApplicationFixture; email?: string; body?: Record<string, unknown> } = {}) {
    const email = options.email ?? uniqueEmail('link');
    const started = await authenticateDirect(stack.auth.url, options.app ?? app, {
      email,
      redirect_uri: REDIRECT_URI,
      state: 'state-xyz',
      ...options.body,
    }).expect(200);
    const mail = await smtp.next(email);
    const token = tokenIn(mail);
    expect(sha256Hex(token)).toBe(started.body.token);
    const body = started.body as { loginAttemptId: string; sentence: string; token: string; allowedDate: string };
    return { email, mail, loginAttemptId: body.loginAttemptId, sentence: body.sentence, tokenHash: body.token, token };
  }

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url, { clock, env: { ...NO_SWEEPS, CODE_TTL_SECONDS: String(CODE_TTL_SECONDS) } });
    const tenant = await createTenant(stack.management.url, 'enterprise');
    const organization = await createOrganization(stack.management.url, tenant, {
      name: 'Links & <Co>',
      whitelistDomains: ['http://localhost:4000', 'https://app.example.com'],
    });
    app = await createApplication(stack.management.url, organization, { type: 'web', name: 'Shop <App>' });
    strict = await createApplication(stack.management.url, organization, {
      type: 'web',
      callbackUrls: ['https://app.example.com/cb?tenant=a'],
    });
    const shortOrganization = await createOrganization(stack.management.url, tenant, {
      whitelistDomains: ['http://localhost:4000'],
      linkTtlSeconds: 60,
    });
    shortLived = await createApplication(stack.management.url, shortOrganization, { type: 'web' });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  describe('GET and HEAD', () => {
    it('show the organization, the sentence and a Continue button, with the page headers, and never use the token', async () => {
      const attempt = await startAttempt();
      for (let look = 0; look < 3; look++) {
        const page = await request(stack.auth.url).get(`${V1}/login_link`).query({ token: attempt.token }).expect(200);
        expectHtmlPage(page, 'same-origin');
        expect(page.headers['content-security-policy']).toContain("form-action 'self' http://localhost:4000");
        expect(page.text).toContain(attempt.sentence);
        expect(page.text).toContain('Links &amp; &lt;Co&gt;');
        expect(page.text).not.toContain('<Co>');
        expect(page.text).toContain('Shop &lt;App&gt;');
        expect(page.text).toContain(attempt.email);
        expect(page.text).toMatch(/<form method="post" action="login_link" id="continue-here">/);
        expect(page.text).toMatch(/<button type="submit">Continue here<\/button>/);
        expect(page.text).not.toContain('state-xyz');
        const head = await request(stack.auth.url).head(`${V1}/login_link`).query({ token: attempt.token });
        expect(head.status).toBe(200);
        expectPageHeaders(head, 'same-origin');
      }
      const [row] = await attemptsOf(app.applicationId, attempt.email);
      expect({ status: row.status, used: row.used_at }).toEqual({ status: 'pending', used: null });
      expect((await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200)).body.status).toBe('pending');
      expect(await query('SELECT id FROM "user" WHERE email = $1', [attempt.email])).toEqual([]);

      const used = callback(await useLink(stack.auth.url, attempt.token));
      expect(used.params.map(([name]) => name)).toEqual(['code', 'state']);
    });

    it('show a used or expired link as such, still without using anything', async () => {
      const used = await startAttempt();
      await useLink(stack.auth.url, used.token).expect(303);
      const usedPage = await request(stack.auth.url).get(`${V1}/login_link`).query({ token: used.token }).expect(200);
      expectHtmlPage(usedPage, 'same-origin');
      expect(usedPage.text).toContain('This link was already used');
      expect(usedPage.text).not.toContain(used.sentence);

      const expired = await startAttempt();
      clock.advance(600);
      const expiredPage = await request(stack.auth.url).get(`${V1}/login_link`).query({ token: expired.token }).expect(200);
      expectHtmlPage(expiredPage, 'same-origin');
      expect(expiredPage.text).toContain('This link has expired');
      expect(expiredPage.text).not.toContain(expired.sentence);
    });
  });

  it('speak the language the browser asks for (en, de, fr, es), error pages too', async () => {
    const attempt = await startAttempt();
    const page = (language: string) =>
      request(stack.auth.url).get(`${V1}/login_link`).query({ token: attempt.token }).set('Accept-Language', language).expect(200);
    expect((await page('de-CH,de;q=0.9')).text).toMatch(/<html lang="de">[\s\S]*Hier fortfahren/);
    expect((await page('fr')).text).toContain('Continuer ici');
    expect((await page('es-MX')).text).toContain('Continuar aquí');
    expect((await page('ja')).text).toMatch(/<html lang="en">[\s\S]*Continue here/);
    const approval = await request(stack.auth.url)
      .get(`${V1}/login_link/approve`)
      .query({ token: attempt.token })
      .set('Accept-Language', 'de')
      .expect(200);
    expect(approval.text).toContain('Bestätigen');
    const unknown = await request(stack.auth.url)
      .get(`${V1}/login_link`)
      .query({ token: randomBytes(32).toString('base64url') })
      .set('Accept-Language', 'fr')
      .expect(404);
    expect(unknown.text).toContain('Ce lien n’est pas valide');
  });

  describe('unknown links', () => {
    const wellFormedUnknown = () => randomBytes(32).toString('base64url');

    it.each<[string, () => Record<string, unknown> | string]>([
      ['an unknown token', () => ({ token: wellFormedUnknown() })],
      ['a token that is too short', () => ({ token: 'abc' })],
      ['a token that is too long', () => ({ token: `${wellFormedUnknown()}A` })],
      ['a token with characters outside base64url', () => ({ token: `${wellFormedUnknown().slice(1)}+` })],
      ['no token', () => ({})],
      ['an empty token', () => ({ token: '' })],
      ['a repeated token', () => 'token=a&token=b'],
      ['the SHA-256 of a real token instead of the token', () => ({ token: Buffer.from(sha256Hex('x'), 'hex').toString('base64url') })],
    ])('%s shows an error page on GET and POST and redirects nowhere', async (_, input) => {
      const value = input();
      const get = await request(stack.auth.url).get(`${V1}/login_link`).query(value);
      const post = await request(stack.auth.url).post(`${V1}/login_link`).type('form').send(value);
      for (const response of [get, post]) {
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(response.headers.location).toBeUndefined();
        expectHtmlPage(response);
        expect(response.text).not.toContain('http://localhost:4000');
      }
      expect(get.status).toBe(404);
      expect(get.text).toContain('This link is not valid');
    });

    it('a POST of an unknown well-formed token is 404 with the error page', async () => {
      const response = await useLink(stack.auth.url, wellFormedUnknown());
      expect(response.status).toBe(404);
      expect(response.text).toContain('This link is not valid');
      expect(response.headers.location).toBeUndefined();
    });
  });

  describe('POST', () => {
    it('logs in: creates the user on first use, issues a code bound to application, redirect_uri and challenge, and resets the backoff', async () => {
      const attempt = await startAttempt({ body: { state: 'a b&c=d/é?', code_challenge: CHALLENGE, code_challenge_method: 'S256' } });
      const now = clock.now();
      const used = callback(await useLink(stack.auth.url, attempt.token));
      expect(used.target).toBe(REDIRECT_URI);
      expect(used.params[0][0]).toBe('code');
      expect(used.params[0][1]).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(used.params[1]).toEqual(['state', 'a b&c=d/é?']);
      expect(used.params).toHaveLength(2);

      const [user] = await query<{ id: string; email_verified: boolean; last_login_at: Date; blocked: boolean }>(
        'SELECT id, email_verified, last_login_at, blocked FROM "user" WHERE organization_id = $1 AND email = $2',
        [app.organizationId, attempt.email],
      );
      expect({ verified: user.email_verified, lastLogin: user.last_login_at, blocked: user.blocked }).toEqual({
        verified: true,
        lastLogin: now,
        blocked: false,
      });

      const [code] = await query<Record<string, unknown>>(
        'SELECT application_id, user_id, redirect_uri, code_challenge, expires_at, used_at FROM authorization_code WHERE hash = $1',
        [Buffer.from(sha256Hex(used.params[0][1]), 'hex')],
      );
      expect(code).toEqual({
        application_id: app.applicationId,
        user_id: user.id,
        redirect_uri: REDIRECT_URI,
        code_challenge: CHALLENGE,
        expires_at: at(CODE_TTL_SECONDS),
        used_at: null,
      });

      const [row] = await attemptsOf(app.applicationId, attempt.email);
      expect({ status: row.status, usedAt: row.used_at, sealedToken: row.link_token_encrypted }).toEqual({
        status: 'completed',
        usedAt: now,
        sealedToken: null,
      });
      expect(
        await query('SELECT * FROM email_throttle WHERE organization_id = $1 AND email = $2', [app.organizationId, attempt.email]),
      ).toEqual([]);
      const status = await loginAttemptStatus(stack.auth.url, app, attempt.loginAttemptId).expect(200);
      expect(status.body.status).toBe('completed');
      // The backoff was reset: the address may ask again at once.
      await authenticateDirect(stack.auth.url, app, { email: attempt.email, redirect_uri: REDIRECT_URI, state: 's' }).expect(200);
      await smtp.next(attempt.email);
    });

    it('updates lastLoginAt of an existing user and never creates a second one', async () => {
      const email = uniqueEmail('returning');
      const created = await call(stack.management.url, 'post', `/organization/${app.organizationId}/user`, app.apiKey, {
        email,
        name: 'Ret Urning',
      }).expect(201);
      expect(created.body.lastLoginAt).toBeNull();
      const first = await startAttempt({ email });
      await useLink(stack.auth.url, first.token).expect(303);
      clock.advance(3600);
      const second = await startAttempt({ email });
      const loginTime = clock.now();
      await useLink(stack.auth.url, second.token).expect(303);
      const users = await query<{ id: string; last_login_at: Date; name: string; email_verified: boolean }>(
        'SELECT id, last_login_at, name, email_verified FROM "user" WHERE organization_id = $1 AND email = $2',
        [app.organizationId, email],
      );
      expect(users).toEqual([{ id: created.body.id, last_login_at: loginTime, name: 'Ret Urning', email_verified: true }]);
    });

    it('redirects to its own serialisation of redirect_uri, keeping its query, while the code keeps the string given', async () => {
      const attempt = await startAttempt({ app: strict, body: { redirect_uri: 'HTTPS://APP.example.com:443/cb?tenant=a' } });
      const used = callback(await useLink(stack.auth.url, attempt.token));
      expect(used.location.href.startsWith('https://app.example.com/cb?tenant=a&code=')).toBe(true);
      expect(used.params.map(([name]) => name)).toEqual(['tenant', 'code', 'state']);
      const [code] = await query<{ redirect_uri: string; code_challenge: string | null }>(
        'SELECT redirect_uri, code_challenge FROM authorization_code WHERE hash = $1',
        [Buffer.from(sha256Hex(used.params[1][1]), 'hex')],
      );
      expect(code).toEqual({ redirect_uri: 'HTTPS://APP.example.com:443/cb?tenant=a', code_challenge: null });
    });

    it('an expired link goes back with error=login_link_expired, error_description and state, and logs nobody in', async () => {
      const attempt = await startAttempt({ app: shortLived });
      const [row] = await attemptsOf(shortLived.applicationId, attempt.email);
      expect(row.expires_at).toEqual(at(60));
      clock.advance(60); // expires_at is exclusive: at expiresAt the link no longer works
      const refused = callback(await useLink(stack.auth.url, attempt.token));
      expect(refused.target).toBe(REDIRECT_URI);
      expect(refused.params).toEqual([
        ['error', 'login_link_expired'],
        ['error_description', 'This login link has expired'],
        ['state', 'state-xyz'],
      ]);
      expect(await query('SELECT id FROM "user" WHERE email = $1', [attempt.email])).toEqual([]);
      expect((await loginAttemptStatus(stack.auth.url, shortLived, attempt.loginAttemptId).expect(200)).body.status).toBe('expired');
      // Still expired when used again.
      expect(callback(await useLink(stack.auth.url, attempt.token)).params[0]).toEqual(['error', 'login_link_expired']);
    });

    it('a link used a millisecond before it expires still works', async () => {
      const attempt = await startAttempt({ app: shortLived });
      clock.advance(59.999);
      expect(callback(await useLink(stack.auth.url, attempt.token)).params[0][0]).toBe('code');
    });

    it('a used link goes back with error=login_link_used and state, and issues no second code', async () => {
      const attempt = await startAttempt();
      const first = callback(await useLink(stack.auth.url, attempt.token));
      expect(first.params[0][0]).toBe('code');
      for (let again = 0; again < 2; again++) {
        const refused = callback(await useLink(stack.auth.url, attempt.token));
        expect(refused.target).toBe(REDIRECT_URI);
        expect(refused.params).toEqual([
          ['error', 'login_link_used'],
          ['error_description', 'This login link has already been used'],
          ['state', 'state-xyz'],
        ]);
      }
      const codes = await query('SELECT c.hash FROM authorization_code c JOIN "user" u ON u.id = c.user_id WHERE u.email = $1', [
        attempt.email,
      ]);
      expect(codes).toHaveLength(1);
    });

    it('of concurrent uses of one link exactly one succeeds, and none fails with 500', async () => {
      const attempt = await startAttempt();
      const responses = await Promise.all(Array.from({ length: 12 }, () => useLink(stack.auth.url, attempt.token)));
      const outcomes = responses.map((response) => callback(response).params[0]);
      expect(outcomes.filter(([name]) => name === 'code')).toHaveLength(1);
      expect(outcomes.filter(([name, value]) => name === 'error' && value === 'login_link_used')).toHaveLength(11);
      const codes = await query('SELECT c.hash FROM authorization_code c JOIN "user" u ON u.id = c.user_id WHERE u.email = $1', [
        attempt.email,
      ]);
      expect(codes).toHaveLength(1);
      expect(
        await query('SELECT id FROM "user" WHERE organization_id = $1 AND email = $2', [app.organizationId, attempt.email]),
      ).toHaveLength(1);
    });

    it('two different links of one new address used at once both log in, creating one user', async () => {
      const email = uniqueEmail('twolinks');
      const first = await startAttempt({ email });
      clock.advance(15);
      const second = await startAttempt({ email });
      const responses = await Promise.all([useLink(stack.auth.url, first.token), useLink(stack.auth.url, second.token)]);
      for (const response of responses) expect(callback(response).params[0][0]).toBe('code');
      expect(await query('SELECT id FROM "user" WHERE organization_id = $1 AND email = $2', [app.organizationId, email])).toHaveLength(1);
    });

    it('a user blocked after the e-mail was sent goes back with error=access_denied and gets no code', async () => {
      const email = uniqueEmail('blocked-later');
      const user = await call(stack.management.url, 'post', `/organization/${app.organizationId}/user`, app.apiKey, { email }).expect(201);
      const attempt = await startAttempt({ email });
      await call(stack.management.url, 'post', `/organization/${app.organizationId}/user/${user.body.id}`, app.apiKey, {
        blocked: true,
      }).expect(200);
      const refused = callback(await useLink(stack.auth.url, attempt.token));
      expect(refused.target).toBe(REDIRECT_URI);
      expect(refused.params).toEqual([
        ['error', 'access_denied'],
        ['error_description', 'This account is blocked'],
        ['state', 'state-xyz'],
      ]);
      expect(await query('SELECT hash FROM authorization_code WHERE user_id = $1', [user.body.id])).toEqual([]);
      const [row] = await query<{ last_login_at: Date | null; email_verified: boolean }>(
        'SELECT last_login_at, email_verified FROM "user" WHERE id = $1',
        [user.body.id],
      );
      expect(row).toEqual({ last_login_at: null, email_verified: false });
      // The link is spent: a second try is "used", not a login.
      expect(callback(await useLink(stack.auth.url, attempt.token)).params[0]).toEqual(['error', 'login_link_used']);
    });
  });
});
