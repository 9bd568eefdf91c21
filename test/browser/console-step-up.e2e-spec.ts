import request from 'supertest';
import { ManualClock } from '@sesame/common';
import { launchBrowser, TestBrowser } from '../support/browser';
import { CONSOLE_SETUP_TIMEOUT_MS, ConsoleStack, startConsoleStack } from '../support/console';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { uniqueEmail } from '../support/login';
import { UNTHROTTLED_ENV } from '../support/management';
import { codeIn, linkIn, ReceivedMail, SmtpSink } from '../support/smtp-sink';

/**
 * Roles and step-up in the console, in Chromium: an admin is offered only the key roles they may
 * give, and after their sign-in has grown stale, rotating a client secret asks them to confirm it is
 * them (the code of a fresh e-mail, in a dialog over the page) and then finishes the rotation.
 * Time is a ManualClock shared by the whole stack.
 */
jest.setTimeout(120_000);

/** MEMBER_REAUTH_SECONDS' default: a sign-in older than this is stale for dangerous changes. */
const REAUTH_SECONDS = 600;

describe('the console asks for a fresh sign-in, in a browser', () => {
  const smtp = new SmtpSink();
  const clock = new ManualClock(new Date());
  const admin = uniqueEmail('console-admin');
  let stack: ConsoleStack;
  let browser: TestBrowser;
  let app: ApplicationFixture;

  beforeAll(async () => {
    await smtp.start();
    stack = await startConsoleStack(smtp.url, { env: UNTHROTTLED_ENV, clock });
    const tenant = await createTenant(stack.origin);
    app = await createApplication(
      stack.origin,
      await createOrganization(stack.origin, tenant, { whitelistDomains: ['https://shop.example.com'] }),
      {
        callbackUrls: ['https://shop.example.com/callback'],
      },
    );
    await request(stack.origin)
      .post('/api/v2/tenant/member')
      .set('Authorization', `Bearer ${tenant.apiKey}`)
      .send({ email: admin, role: 'admin' })
      .expect(201);
    browser = await launchBrowser({ artifacts: 'console-step-up', viewport: { width: 1280, height: 860 } });
  }, CONSOLE_SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await smtp.stop();
  });

  it('offers an admin only the roles they may give, and on Rotate after a stale sign-in takes the e-mailed code and finishes the rotation', async () => {
    const { page } = browser;
    await page.goto(`${stack.consoleUrl}/sign-in`);
    await page.fill('#email', admin);
    await page.keyboard.press('Enter');
    await page.getByTestId('sentence').waitFor();
    await page.goto(linkIn(await signInMail(smtp, admin)));
    await page.click('button[type=submit]');
    await page.waitForURL(`${stack.consoleUrl}/t/${app.tenantId}/overview`);

    await page.goto(`${stack.consoleUrl}/t/${app.tenantId}/api-keys`);
    await page.getByRole('heading', { name: 'New API key' }).waitFor();
    const roles = await page
      .getByRole('radio')
      .evaluateAll((radios) => radios.map((radio) => (radio as unknown as { value: string }).value));
    expect(roles).toEqual(['viewer', 'admin']);
    await browser.screenshot(page, '01-admin-key-roles');

    clock.advance(REAUTH_SECONDS + 60);
    await page.goto(`${stack.consoleUrl}/t/${app.tenantId}/organizations/${app.organizationId}/applications/${app.applicationId}`);
    await page.getByRole('button', { name: 'Rotate' }).click();
    await page.getByRole('button', { name: 'Rotate secret' }).click();

    const confirm = page.getByRole('dialog', { name: 'Confirm it’s you' });
    await confirm.getByTestId('approval-number').waitFor();
    await browser.screenshot(page, '02-confirm-it-is-you');
    await confirm.getByLabel(/6-digit code/).fill(codeIn(await signInMail(smtp, admin)));
    await confirm.getByRole('button', { name: 'Sign in with the code' }).click();

    await page.getByText('The new client secret').waitFor();
    await browser.screenshot(page, '03-rotated');
    const shown = await page.locator('.notice code').textContent();
    const read = await request(stack.origin)
      .get(`/api/v2/organization/${app.organizationId}/application/${app.applicationId}?include=secret`)
      .set('Authorization', `Bearer ${app.apiKey}`)
      .expect(200);
    expect(shown).toBe(read.body.clientSecret);
    expect(shown).not.toBe(app.clientSecret);
    expect(await confirm.count()).toBe(0);
  });
});

/** The next sign-in e-mail to the address (an invitation that came first is passed over). */
async function signInMail(smtp: SmtpSink, email: string): Promise<ReceivedMail> {
  for (;;) {
    const mail = await smtp.next(email);
    if (/\/v1\/login_link\?token=/.test(mail.text)) return mail;
  }
}
