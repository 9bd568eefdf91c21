import { Page, Request } from 'playwright-core';
import { startStack, Stack } from '../support/apps';
import { launchBrowser, TestBrowser } from '../support/browser';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { uniqueEmail } from '../support/login';
import { linkIn, SmtpSink } from '../support/smtp-sink';
import { ExampleServer } from './support/example-server';
import { silentLogger } from './support/silent';

/**
 * Autologin in Chromium: one application on two origins (http://localhost:<p1> and
 * http://127.0.0.1:<p2>, two instances of the example app with the same credentials, as two
 * servers of one app would be), an organization with autologin. The user signs in on the first;
 * Sesame walks the browser through the second's callback (signed state, no login cookie there)
 * and back; the user ends signed in on both. Screenshots: test-artifacts/client-autologin/.
 */
describe('autologin across two origins in Chromium', () => {
  const smtp = new SmtpSink();
  const first = new ExampleServer('localhost');
  const second = new ExampleServer('127.0.0.1');
  const logger = silentLogger();
  let stack: Stack;
  let app: ApplicationFixture;
  let browser: TestBrowser;

  beforeAll(async () => {
    await smtp.start();
    await first.listen();
    await second.listen();
    stack = await startStack(smtp.url);
    const management = stack.management.url;
    const tenant = await createTenant(management, 'enterprise');
    const organization = await createOrganization(management, tenant, {
      name: 'Acme Group',
      autologin: true,
      whitelistDomains: [first.origin, second.origin],
    });
    app = await createApplication(management, organization, {
      type: 'web',
      name: 'Acme Group web',
      callbackUrls: [`${first.origin}/callback`, `${second.origin}/callback`],
    });
    for (const [server, appName] of [
      [first, 'Acme Shop'],
      [second, 'Acme Blog'],
    ] as const) {
      server.start({
        sesameUrl: stack.auth.config.http.publicBaseUrl,
        clientId: app.clientId,
        clientSecret: app.clientSecret!,
        appName,
        logger,
        autologin: true,
      });
    }
    browser = await launchBrowser({ artifacts: 'client-autologin' });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await first.close();
    await second.close();
    await stack?.close();
    await smtp.stop();
  });

  it('signs in on one origin and ends signed in on both', async () => {
    const { page, context } = browser;
    const email = uniqueEmail('autologin');
    const visited: URL[] = [];
    page.on('request', (request: Request) => {
      if (request.isNavigationRequest()) visited.push(new URL(request.url()));
    });

    // Signed out on both origins to begin with.
    await page.goto(`${second.origin}/`);
    expect(await text(page, 'h1')).toBe('Sign in');
    await page.goto(`${first.origin}/`);
    await browser.screenshot(page, '01-first-origin-sign-in');

    await page.fill('#email', email);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#send-link')]);
    expect(await text(page, 'h1')).toBe('Check your inbox');
    await browser.screenshot(page, '02-check-your-inbox');

    await page.goto(linkIn(await smtp.next(email)));
    await browser.screenshot(page, '03-sesame-login-link');
    visited.length = 0;
    // Continue: Sesame → the second origin's callback → Sesame's /v1/autologin → the first origin's callback → its home page.
    await Promise.all([page.waitForURL(`${first.origin}/`), page.click('button[type=submit]')]);
    expect(await text(page, '#user-email')).toBe(email);
    await browser.screenshot(page, '04-first-origin-signed-in');

    const route = visited.map((url) => `${url.origin}${url.pathname}`);
    expect(route).toEqual([
      `${stack.auth.config.http.publicBaseUrl}/v1/login_link`,
      `${second.origin}/callback`,
      `${stack.auth.config.http.publicBaseUrl}/v1/autologin`,
      `${first.origin}/callback`,
      `${first.origin}/`,
    ]);
    const stop = visited[1];
    expect(stop.searchParams.get('autologin_continue')).toMatch(
      new RegExp(`^${escapeRegExp(stack.auth.config.http.publicBaseUrl)}/v1/autologin\\?token=`),
    );
    expect(stop.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{43}$/); // the signed state the second origin verified
    expect(visited[3].searchParams.get('state')).toBe(stop.searchParams.get('state'));
    expect(logger.lines.filter((line) => line.startsWith('Signed in'))).toEqual([`Signed in ${email} (autologin)`, `Signed in ${email}`]);

    // Each origin has its own session cookie (HttpOnly, Secure, SameSite=Lax), with its own token.
    const [firstSession, secondSession] = await Promise.all(
      [first.origin, second.origin].map(async (origin) =>
        (await context.cookies(origin)).find((cookie) => cookie.name === 'sesame_session'),
      ),
    );
    for (const session of [firstSession, secondSession]) expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax' });
    expect(firstSession!.domain).toBe('localhost');
    expect(secondSession!.domain).toBe('127.0.0.1');
    expect(firstSession!.value).not.toBe(secondSession!.value);

    // The second origin: signed in as the same user, without having seen the form.
    await page.goto(`${second.origin}/`);
    expect(await text(page, '#user-email')).toBe(email);
    expect(await text(page, 'header a')).toBe('Acme Blog');
    await browser.screenshot(page, '05-second-origin-signed-in');

    // Signing out on one origin leaves the other signed in (separate sessions).
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#sign-out')]);
    expect(await text(page, 'h1')).toBe('Sign in');
    await page.goto(`${first.origin}/`);
    expect(await text(page, '#user-email')).toBe(email);
  });
});

async function text(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).textContent()) ?? '').trim();
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
