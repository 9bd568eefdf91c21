import { Page } from 'playwright-core';
import { Stack } from '../support/apps';
import { launchBrowser, TestBrowser } from '../support/browser';
import { ApplicationFixture } from '../support/fixtures';
import { uniqueEmail } from '../support/login';
import { linkIn } from '../support/smtp-sink';
import { ExampleStack } from './support/example-stack';

/**
 * The example app (examples/express-app, built on @sesame/client) in Debian's Chromium against the
 * real Sesame: the sign-in form, the e-mailed link from the SMTP sink, Continue, back in the app
 * showing the user, then sign-out. Screenshots: test-artifacts/client-express-app/.
 */
describe('example Express app in Chromium', () => {
  const run = new ExampleStack();
  const { smtp, example, logger } = run;
  let stack: Stack;
  let app: ApplicationFixture;
  let browser: TestBrowser;

  beforeAll(async () => {
    ({ stack, app } = await run.start());
    browser = await launchBrowser({ artifacts: 'client-express-app' });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await run.close();
  });

  it('signs in by e-mailed link, shows the user, and signs out', async () => {
    const { page, context } = browser;
    const email = uniqueEmail('express');

    // 1. The app's sign-in form.
    await page.goto(`${example.origin}/`);
    expect(await text(page, 'h1')).toBe('Sign in');
    await browser.screenshot(page, '01-sign-in-form');

    // 2. Send the link: the app shows the attempt's sentence and when another link may be asked for.
    await page.fill('#email', email);
    await submit(page, '#send-link');
    expect(await text(page, 'h1')).toBe('Check your inbox');
    const sentence = await text(page, '#sentence');
    expect(sentence.split(' ').length).toBeGreaterThanOrEqual(3);
    expect(Date.parse((await page.locator('#allowed-date').getAttribute('datetime'))!)).toBeGreaterThan(Date.now());
    const loginCookie = (await context.cookies(example.origin)).find((cookie) => cookie.name === 'sesame_login');
    expect(loginCookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    await browser.screenshot(page, '02-check-your-inbox');

    // 3. The e-mailed link opens Sesame's page, with the same sentence.
    const link = linkIn(await smtp.next(email));
    await page.goto(link);
    expect(await text(page, '#sentence')).toBe(sentence);
    await browser.screenshot(page, '03-sesame-login-link');

    // 4. Continue: Sesame redirects to the app's callback, which exchanges the code and returns to the form's page.
    await Promise.all([page.waitForURL(`${example.origin}/`), page.click('button[type=submit]')]);
    expect(await text(page, '#user-email')).toBe(email);
    expect(await text(page, '#signed-in-as')).toBe(email);
    expect(await text(page, '#user-organization')).toBe(app.organizationId);
    expect(await text(page, '#user-verified')).toBe('yes');
    expect(logger.lines).toContain(`Signed in ${email}`);
    const cookies = await context.cookies(example.origin);
    const session = cookies.find((cookie) => cookie.name === 'sesame_session')!;
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    expect(session.expires).toBeGreaterThan(Date.now() / 1000 + 29 * 24 * 3600); // as long as the access token (30 days)
    expect(cookies.find((cookie) => cookie.name === 'sesame_login')).toBeUndefined(); // the finished login is forgotten
    await browser.screenshot(page, '04-signed-in');

    // The session works on the app's other pages.
    await page.goto(`${example.origin}/profile`);
    expect(JSON.parse(await text(page, '#profile'))).toMatchObject({ email, organizationId: app.organizationId });

    // Another site cannot sign the user out: a same-origin post with the session's CSRF token is needed.
    const csrf = await page.locator('input[name=csrf]').getAttribute('value');
    const signOut = (headers: Record<string, string>, body: string) =>
      fetch(`${example.origin}/signout`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: `sesame_session=${session.value}`, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
      });
    expect((await signOut({ origin: 'https://evil.example' }, `csrf=${csrf}`)).status).toBe(403);
    expect((await signOut({ 'sec-fetch-site': 'cross-site', origin: example.origin }, `csrf=${csrf}`)).status).toBe(403);
    expect((await signOut({}, `csrf=${csrf}`)).status).toBe(403); // neither Sec-Fetch-Site nor Origin
    expect((await signOut({ origin: example.origin }, '')).status).toBe(403); // no token
    expect((await signOut({ origin: example.origin }, `csrf=${'x'.repeat(43)}`)).status).toBe(403);
    expect((await fetch(`${stack.auth.url}/api/v1/userinfo`, { headers: { authorization: `Bearer ${session.value}` } })).status).toBe(200);

    // 5. Sign out: the cookie is gone and the token is revoked at Sesame.
    await page.goto(`${example.origin}/`);
    await submit(page, '#sign-out');
    expect(page.url()).toBe(`${example.origin}/`);
    expect(await text(page, 'h1')).toBe('Sign in');
    expect((await context.cookies(example.origin)).find((cookie) => cookie.name === 'sesame_session')).toBeUndefined();
    const userinfo = await fetch(`${stack.auth.url}/api/v1/userinfo`, { headers: { authorization: `Bearer ${session.value}` } });
    expect(userinfo.status).toBe(401);
    await browser.screenshot(page, '05-signed-out');

    // A protected page now sends the user to the form, which keeps where they wanted to go.
    await page.goto(`${example.origin}/profile`);
    expect(page.url()).toBe(`${example.origin}/?return_to=%2Fprofile`);
  });

  it('never shows the text of a callback error: anyone can put one in a link', async () => {
    const injected = 'Your account is locked. Call +1 555 0100 to unlock it';
    for (const [error, shown] of [
      ['access_denied', 'Sign-in was refused.'],
      ['made_up', 'The sign-in did not complete. Start again here.'],
    ]) {
      const page = await fetch(`${example.origin}/callback?error=${error}&error_description=${encodeURIComponent(injected)}&state=x`);
      const html = await page.text();
      expect(page.status).toBe(400);
      expect(html).toContain(shown);
      expect(html).not.toContain('locked');
    }
  });

  it('shows an error and signs nobody in when the link is opened in another browser', async () => {
    const email = uniqueEmail('other-browser');
    await browser.page.goto(`${example.origin}/`);
    await browser.page.fill('#email', email);
    await submit(browser.page, '#send-link');
    const link = linkIn(await smtp.next(email));

    // Another browser profile: no login cookie there, so the state cannot be matched.
    const other = await launchBrowser({ artifacts: 'client-express-app' });
    try {
      await other.page.goto(link);
      await Promise.all([other.page.waitForURL((url) => url.origin === example.origin), other.page.click('button[type=submit]')]);
      expect(await text(other.page, '#error-title')).toBe('This sign-in cannot continue');
      expect((await other.context.cookies(example.origin)).find((cookie) => cookie.name === 'sesame_session')).toBeUndefined();
      await other.screenshot(other.page, '06-link-in-another-browser');
    } finally {
      await other.close();
    }
  });
});

async function submit(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click(selector)]);
}

async function text(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).textContent()) ?? '').trim();
}
