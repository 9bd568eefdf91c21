import { Page } from 'playwright-core';
import { launchBrowser, TestBrowser } from '../support/browser';
import { query } from '../support/direct-auth';
import { ApplicationFixture } from '../support/fixtures';
import { uniqueEmail } from '../support/login';
import { linkIn } from '../support/smtp-sink';
import { addVirtualAuthenticator } from '../support/virtual-authenticator';
import { ExampleStack } from './support/example-stack';

/**
 * Passkeys in the example app (examples/express-app: @sesame/client on the server,
 * @simplewebauthn/browser in its pages) in Chromium with a virtual authenticator, against the real
 * Sesame: signed in by e-mailed link, "Create a passkey" on the home page, signed out, then "Sign
 * in with a passkey" on the app's own sign-in page. Screenshots: test-artifacts/client-express-app-passkeys/.
 */
describe('example Express app: passkeys in Chromium', () => {
  const run = new ExampleStack();
  const { smtp, example, logger } = run;
  let app: ApplicationFixture;
  let browser: TestBrowser;

  beforeAll(async () => {
    ({ app } = await run.start());
    browser = await launchBrowser({ artifacts: 'client-express-app-passkeys' });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await run.close();
  });

  it('creates a passkey right after an e-mailed login, then signs in with it alone', async () => {
    const { page } = browser;
    const { cdp, authenticatorId } = await addVirtualAuthenticator(browser);
    const email = uniqueEmail('express-passkey');

    // Signed in by the e-mailed link, as usual.
    await page.goto(`${example.origin}/`);
    await page.fill('#email', email);
    await submit(page, '#send-link');
    await page.goto(linkIn(await smtp.next(email)));
    await Promise.all([page.waitForURL(`${example.origin}/`), page.click('button[type=submit]')]);
    expect(await text(page, '#user-email')).toBe(email);

    // "Create a passkey": the ceremony runs in the page, Sesame stores the passkey under the page's host.
    await page.click('#passkey-create');
    await page.locator('#passkey-message.notice').waitFor();
    expect(await text(page, '#passkey-message')).toMatch(/^Passkey created/);
    await browser.screenshot(page, '01-passkey-created');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ rpId: 'localhost', isResidentCredential: true });
    const [stored] = await query<{ rp_id: string }>('SELECT p.rp_id FROM passkey p JOIN "user" u ON u.id = p.user_id WHERE u.email = $1', [
      email,
    ]);
    expect(stored).toEqual({ rp_id: 'localhost' });

    // Signed out, then signed in with the passkey alone: no e-mail.
    await submit(page, '#sign-out');
    expect(await text(page, 'h1')).toBe('Sign in');
    await browser.screenshot(page, '02-sign-in-with-a-passkey');
    await page.goto(`${example.origin}/profile`);
    expect(page.url()).toBe(`${example.origin}/?return_to=%2Fprofile`);
    await Promise.all([page.waitForURL(`${example.origin}/profile`), page.click('#passkey-sign-in')]);
    expect(JSON.parse(await text(page, '#profile'))).toMatchObject({ email, organizationId: app.organizationId });
    expect(logger.lines).toContain(`Signed in ${email} with a passkey`);
    await browser.screenshot(page, '03-signed-in-with-the-passkey');

    // A second passkey on the same device: Sesame's options exclude the one it holds, so the browser refuses, and the page says so.
    await page.goto(`${example.origin}/`);
    await page.click('#passkey-create');
    await page.locator('#passkey-message.error').waitFor();
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);
  });
});

async function submit(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click(selector)]);
}

async function text(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).textContent()) ?? '').trim();
}
