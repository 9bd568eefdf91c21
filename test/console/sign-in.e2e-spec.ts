import request from 'supertest';
import { validateOpenApi } from '../support/openapi-validator';
import { CONSOLE_SETUP_TIMEOUT_MS, ConsoleBrowser, ConsoleStack, signInThroughConsole, startConsoleStack } from '../support/console';
import { uniqueEmail } from '../support/login';
import { PLATFORM_KEY, UNTHROTTLED_ENV } from '../support/management';
import { codeIn, linkIn, SmtpSink } from '../support/smtp-sink';

/**
 * A member signs in to the console through its own routes, on the real stack (Postgres, Redis,
 * SMTP, HTTP): the invitation and the sign-in link arrive by e-mail, the callback sets the session
 * cookie, the console forwards the pages' calls with the member's token, and sign-out revokes it.
 */
describe('signing in to the console', () => {
  const smtp = new SmtpSink();
  let stack: ConsoleStack;

  beforeAll(async () => {
    await smtp.start();
    // Revocations are checked at once here; the caches' window is tested in test/management/member-access.e2e-spec.ts.
    stack = await startConsoleStack(smtp.url, { env: { ...UNTHROTTLED_ENV, API_KEY_CACHE_SECONDS: '0' } });
  }, CONSOLE_SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await stack?.close();
    await smtp.stop();
  });

  async function tenantWithOwner(owner: string): Promise<{ tenantId: string; apiKey: string }> {
    const created = await request(stack.origin)
      .post('/api/v2/tenant')
      .set('Authorization', `Bearer ${PLATFORM_KEY}`)
      .send({ name: 'Console tenant', plan: 'free', ownerEmail: owner })
      .expect(201);
    expect(created.body.owner).toEqual(expect.objectContaining({ email: owner, role: 'owner', invitedBy: null, lastSignInAt: null }));
    return { tenantId: created.body.tenant.id, apiKey: created.body.apiKey.key };
  }

  it('the owner is invited by e-mail, signs in with the e-mailed link, works through the console, and signs out', async () => {
    const owner = uniqueEmail('owner');
    const { tenantId } = await tenantWithOwner(owner);
    const invitation = await smtp.next(owner);
    expect(invitation.subject).toBe('You are invited to manage Console tenant on Sesame');
    expect(invitation.text).toContain(`${stack.consoleUrl}/`);

    const browser = await signInThroughConsole(stack, smtp, owner);
    const session = await browser.session();
    expect(session).toEqual({
      signedIn: true,
      email: owner,
      memberships: [{ memberId: expect.any(String), tenantId, tenantName: 'Console tenant', plan: 'free', role: 'owner' }],
      csrfToken: expect.any(String),
    });
    expect(browser.cookies.get('sesame_console_session')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The pages' calls go to the management API with the member's token (Free plan: 1 request a minute for keys, but members have their own limit).
    for (let i = 0; i < 3; i++) {
      const tenant = await browser.get('/console/api/v2/tenant').set('Sesame-Tenant', tenantId).expect(200);
      expect(tenant.body.data).toEqual([expect.objectContaining({ id: tenantId, name: 'Console tenant' })]);
    }
    const created = await browser
      .post('/console/api/v2/organization', { name: 'Made in the console', whitelistDomains: ['https://shop.example.com'] })
      .set('Sesame-Tenant', tenantId)
      .expect(201);
    expect(created.body).toEqual(expect.objectContaining({ name: 'Made in the console', tenantId }));
    const members = await browser.get('/console/api/v2/tenant/member').set('Sesame-Tenant', tenantId).expect(200);
    expect(members.body.data).toEqual([expect.objectContaining({ email: owner, role: 'owner', lastSignInAt: expect.any(String) })]);

    const token = browser.accessToken!;
    await browser.post('/console/api/sign_out').expect(204);
    expect(browser.accessToken).toBeNull();
    const revoked = await request(stack.origin).get('/api/v2/me').set('Authorization', `Bearer ${token}`).expect(401);
    expect(revoked.body.code).toBe('invalid_member_token');
    expect(await browser.session()).toEqual({ signedIn: false, email: null, memberships: [], csrfToken: expect.any(String) });
    await browser.get('/console/api/v2/tenant').set('Sesame-Tenant', tenantId).expect(401);
  });

  // The page that says so is checked in a browser (test/browser/console.e2e-spec.ts).
  it('anyone can complete a sign-in, but someone who is no member gets no tenant, and every tenant call is refused', async () => {
    const stranger = uniqueEmail('stranger');
    const browser = await signInThroughConsole(stack, smtp, stranger);
    expect(await browser.session()).toEqual({ signedIn: true, email: stranger, memberships: [], csrfToken: expect.any(String) });
    const refused = await browser
      .get('/console/api/v2/organization')
      .set('Sesame-Tenant', '7c835fcd-39ca-4ade-a78d-43eadb03283d')
      .expect(403);
    expect(refused.body.code).toBe('not_a_member');
  });

  it('forwards a read with a JSON content type (as fetch clients often send) without a body', async () => {
    const owner = uniqueEmail('reader');
    const { tenantId } = await tenantWithOwner(owner);
    const browser = await signInThroughConsole(stack, smtp, owner);
    const read = await browser
      .get('/console/api/v2/tenant')
      .set('Sesame-Tenant', tenantId)
      .set('Content-Type', 'application/json')
      .expect(200);
    expect(read.body.data).toEqual([expect.objectContaining({ id: tenantId })]);
  });

  it('changes need the CSRF token of the session, from the console’s own origin', async () => {
    const owner = uniqueEmail('csrf');
    const { tenantId } = await tenantWithOwner(owner);
    const browser = await signInThroughConsole(stack, smtp, owner);
    const before = (await browser.get('/console/api/v2/organization').set('Sesame-Tenant', tenantId).expect(200)).body.data.length;

    const forged = new ConsoleBrowser(stack.origin);
    forged.cookies.set('sesame_console_session', browser.cookies.get('sesame_console_session')!);
    forged.cookies.set('sesame_console_csrf', browser.cookies.get('sesame_console_csrf')!);
    const withoutToken = await forged
      .post('/console/api/v2/organization', { name: 'Forged' })
      .set('Sesame-Tenant', tenantId)
      .unset('X-CSRF-Token');
    expect([withoutToken.status, withoutToken.body.code]).toEqual([403, 'csrf_token_invalid']);
    forged.csrfToken = 'x'.repeat(43);
    const wrongToken = await forged.post('/console/api/v2/organization', { name: 'Forged' }).set('Sesame-Tenant', tenantId);
    expect([wrongToken.status, wrongToken.body.code]).toEqual([403, 'csrf_token_invalid']);

    const crossSite = await browser
      .post('/console/api/v2/organization', { name: 'Forged' })
      .set('Sesame-Tenant', tenantId)
      .set('Origin', 'https://evil.example');
    expect([crossSite.status, crossSite.body.code]).toEqual([403, 'cross_origin_request']);
    const crossSiteForm = await browser.post('/console/api/sign_out').set('Sec-Fetch-Site', 'cross-site');
    expect([crossSiteForm.status, crossSiteForm.body.code]).toEqual([403, 'cross_origin_request']);

    expect((await browser.get('/console/api/v2/organization').set('Sesame-Tenant', tenantId).expect(200)).body.data.length).toBe(before);
    expect((await browser.session()).signedIn).toBe(true);
  });

  it('a second sign-in for the address moments later is refused with the time of the next, and sends nothing', async () => {
    const email = uniqueEmail('twice');
    const browser = new ConsoleBrowser(stack.origin);
    await browser.session();
    const first = await browser.post('/console/api/sign_in', { email: `  ${email.toUpperCase()} ` }).expect(200);
    expect(first.body).toEqual({
      email,
      loginAttemptId: expect.any(String),
      sentence: expect.any(String),
      approvalNumber: expect.stringMatching(/^[1-9]\d$/),
      allowedDate: expect.any(String),
      message: `Check your inbox: we sent a sign-in link to ${email}.`,
    });
    const again = await browser.post('/console/api/sign_in', { email }).expect(429);
    expect(again.body).toEqual(expect.objectContaining({ code: 'too_early', allowedDate: first.body.allowedDate }));
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    const invalid = await browser.post('/console/api/sign_in', { email: 'not an address' }).expect(400);
    expect(invalid.body.code).toBe('validation_failed');
    await smtp.next(email);
    expect(smtp.pending(email)).toEqual([]);
  });

  it('signs in with the e-mail’s code in the browser that asked; a wrong code is refused with Sesame’s code, and another browser gets nothing', async () => {
    const email = uniqueEmail('console-code');
    const browser = new ConsoleBrowser(stack.origin);
    await browser.session();
    const started = await browser.post('/console/api/sign_in', { email }).expect(200);
    const code = codeIn(await smtp.next(email));
    const body = (typed: string) => ({ loginAttemptId: started.body.loginAttemptId, code: typed });

    const stranger = new ConsoleBrowser(stack.origin);
    await stranger.session();
    const notHere = await stranger.post('/console/api/sign_in/code', body(code)).expect(404);
    expect(notHere.body.code).toBe('sign_in_not_found');
    expect(
      (await stranger.get(`/console/api/sign_in/status?loginAttemptId=${started.body.loginAttemptId}&wait=0`).expect(404)).body.code,
    ).toBe('sign_in_not_found');

    const wrong = await browser.post('/console/api/sign_in/code', body(code === '000000' ? '111111' : '000000')).expect(400);
    expect(wrong.body.code).toBe('invalid_login_code');
    expect(
      (await browser.get(`/console/api/sign_in/status?loginAttemptId=${started.body.loginAttemptId}&wait=0`).expect(200)).body,
    ).toEqual({ status: 'pending' });
    await browser.post('/console/api/sign_in/code', body(code)).expect(200, { status: 'completed' });
    expect(await browser.session()).toMatchObject({ signedIn: true, email });
  });

  it('a held status answers when the link is approved on another device, and signs the browser that asked in', async () => {
    const email = uniqueEmail('console-approved');
    const browser = new ConsoleBrowser(stack.origin);
    await browser.session();
    const started = await browser.post('/console/api/sign_in', { email }).expect(200);
    const token = new URL(linkIn(await smtp.next(email))).searchParams.get('token')!;
    const held = browser
      .get(`/console/api/sign_in/status?loginAttemptId=${started.body.loginAttemptId}&wait=25`)
      .then((response) => response);
    await request(stack.origin)
      .post('/api/v1/login_link/approve')
      .type('form')
      .send({ token, number: started.body.approvalNumber })
      .expect(200);
    expect((await held).body).toEqual({ status: 'completed' });
    expect(await browser.session()).toMatchObject({ signedIn: true, email });
  });

  it('serves the pages: every path under /console is the app (its router shows the screen), assets are cached for good, and the API keeps its 404s', async () => {
    for (const path of ['/console', '/console/', '/console/sign-in', '/console/t/0b6a1e7e-4d1c-4a57-9a55-3f7a0e2f1c11/organizations']) {
      const page = await request(stack.origin).get(path).expect(200);
      expect([path, page.headers['content-type']]).toEqual([path, 'text/html; charset=utf-8']);
      expect(page.text).toContain('<div id="root"></div>');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.headers['cache-control']).toBe('no-store');
    }
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec((await request(stack.origin).get('/console/').expect(200)).text)![1];
    const asset = await request(stack.origin).get(script).expect(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    await request(stack.origin).get('/console/assets/nothing.js').expect(404);
    for (const path of ['/console/api/nothing', '/console/auth/nothing']) {
      const refused = await request(stack.origin).get(path).expect(404);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
  });

  it('documents its own API in OpenAPI', async () => {
    const document = (await request(stack.origin).get('/console/api/openapi.json').expect(200)).body;
    expect(validateOpenApi(document)).toEqual({ valid: true });
    expect(Object.keys(document.paths).sort()).toEqual([
      '/api/health',
      '/console/api/endpoints',
      '/console/api/session',
      '/console/api/sign_in',
      '/console/api/sign_in/code',
      '/console/api/sign_in/status',
      '/console/api/sign_out',
      '/console/api/try_it',
      '/console/api/v2/{path}',
      '/console/auth/callback',
    ]);
  });
});
