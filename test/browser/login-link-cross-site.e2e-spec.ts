import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { launchBrowser, TestBrowser } from '../support/browser';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth, uniqueEmail } from '../support/login';
import { linkIn, SmtpSink } from '../support/smtp-sink';

/**
 * Login CSRF through the login link: someone who holds a link of their own (their own address)
 * makes a victim's browser press Continue from another site, and the victim's browser ends up
 * signed in as them (on every domain, with autologin). POST /v1/login_link takes only its own
 * page's form: Chromium's Sec-Fetch-Site says where a post comes from.
 */
describe('the login link refuses posts from other sites', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let app: ApplicationFixture;
  let browser: TestBrowser;
  let attackerSite: Server;
  let attackerOrigin: string;
  let attackerPage = '';

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['http://localhost:4000'] });
    app = await createApplication(stack.management.url, organization, { type: 'web' });
    // The attacker's site: "localhost" is another site than Sesame's 127.0.0.1.
    attackerSite = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(attackerPage));
    await new Promise<void>((resolve) => attackerSite.listen(0, '127.0.0.1', resolve));
    attackerOrigin = `http://localhost:${(attackerSite.address() as AddressInfo).port}`;
    browser = await launchBrowser({ artifacts: 'login-link-cross-site' });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    attackerSite?.closeAllConnections();
    await new Promise<void>((resolve) => attackerSite?.close(() => resolve()));
    await stack?.close();
    await smtp.stop();
  });

  async function linkToken(): Promise<{ token: string; link: string }> {
    const email = uniqueEmail('cross-site');
    await request(stack.auth.url)
      .post('/api/v1/authenticate_direct')
      .set('Authorization', basicAuth(app))
      .send({ email, redirect_uri: 'http://localhost:4000/callback', state: 's' })
      .expect(200);
    const link = linkIn(await smtp.next(email));
    return { token: new URL(link).searchParams.get('token')!, link };
  }

  it('a form another site submits is refused with an error page, and the link stays unused', async () => {
    const { token, link } = await linkToken();
    attackerPage = `<!doctype html><form id="f" method="post" action="${stack.auth.url}/api/v1/login_link"><input type="hidden" name="token" value="${token}"></form><script>document.getElementById('f').submit()</script>`;
    const { page } = browser;
    const answer = page.waitForResponse(
      (response) => response.url().endsWith('/api/v1/login_link') && response.request().method() === 'POST',
    );
    await page.goto(`${attackerOrigin}/`);
    const refused = await answer;
    expect(refused.status()).toBe(403);
    expect(refused.headers().location).toBeUndefined();
    await browser.screenshot(page, '01-cross-site-post-refused');

    // The link's own page still offers Continue, and pressing it there signs in.
    await page.goto(link);
    expect(await page.locator('button[type=submit]').textContent()).toBe('Continue here');
    const landed = page.waitForRequest((next) => next.url().startsWith('http://localhost:4000/callback'));
    await page.click('button[type=submit]');
    expect(new URL((await landed).url()).searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('over plain HTTP: Sec-Fetch-Site cross-site or same-site, or a foreign Origin, is 403 cross_site_request', async () => {
    const { token } = await linkToken();
    for (const headers of [
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
    ]) {
      const refused = await request(stack.auth.url).post('/api/v1/login_link').set(headers).type('form').send({ token }).expect(403);
      expect(refused.headers.location).toBeUndefined();
      expect(refused.text).toContain('This form can only be sent from its own page');
    }
    const own = await request(stack.auth.url)
      .post('/api/v1/login_link')
      .set({ 'Sec-Fetch-Site': 'same-origin', Origin: new URL(stack.auth.config.http.publicBaseUrl).origin })
      .type('form')
      .send({ token })
      .expect(303);
    expect(new URL(own.headers.location).searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
