import { Page } from 'playwright-core';
import request from 'supertest';
import { expectAccessible, launchBrowser, lookAt, TestBrowser } from '../support/browser';
import { ExampleServer } from '../client/support/example-server';
import { CONSOLE_SETUP_TIMEOUT_MS, ConsoleStack, startConsoleStack } from '../support/console';
import { uniqueEmail } from '../support/login';
import { insertPasskey, PLATFORM_KEY, UNTHROTTLED_ENV } from '../support/management';
import { codeIn, linkIn, ReceivedMail, SmtpSink } from '../support/smtp-sink';
import { expectApprovalNumberAbsent, recordDocuments, twoDigitNumbersIn, wrongApprovalNumber } from '../support/approval';

/**
 * The console in Chromium, as a new team uses it after `npm start`: the owner signs in through the
 * inbox, creates an organization and a web application, copies its client id and secret from the
 * integration page, and signs a user in to the example app with them; then every screen, in light
 * and dark, with an axe check; a viewer's console, and the API refusing the viewer's changes.
 */
// Each step drives a real browser against the whole stack; the first test walks the whole loop.
jest.setTimeout(120_000);

describe('the console, in a browser', () => {
  const smtp = new SmtpSink();
  const example = new ExampleServer('127.0.0.1');
  let stack: ConsoleStack;
  let browser: TestBrowser;
  let tenantId: string;
  let tenantKey: string;
  const owner = uniqueEmail('console-owner');
  /** Filled as the first test goes: where the later ones start. */
  const made = { organizationUrl: '', integrationUrl: '', clientId: '', clientSecret: '' };

  beforeAll(async () => {
    await smtp.start();
    await example.listen();
    stack = await startConsoleStack(smtp.url, { env: { ...UNTHROTTLED_ENV, API_KEY_CACHE_SECONDS: '0' } });
    const created = await request(stack.origin)
      .post('/api/v2/tenant')
      .set('Authorization', `Bearer ${PLATFORM_KEY}`)
      .send({ name: 'Acme', plan: 'pro', ownerEmail: owner })
      .expect(201);
    tenantId = created.body.tenant.id;
    tenantKey = created.body.apiKey.key;
    browser = await launchBrowser({ artifacts: 'console', viewport: { width: 1280, height: 860 } });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.origin });
  }, CONSOLE_SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await example.close();
    await stack?.close();
    await smtp.stop();
  });

  const look = (page: Page, name: string) => lookAt(browser, page, name);

  it('signs the owner in through the inbox; they create an organization and a web app, copy its credentials, and sign a user in to the example app', async () => {
    const { page } = browser;
    await page.goto(`${stack.consoleUrl}/`);
    await page.waitForURL(`${stack.consoleUrl}/sign-in`);
    await look(page, '01-sign-in');

    // Keyboard alone: the skip link comes first, then the form, sent with Enter.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    await page.locator('#email').focus();
    await page.keyboard.type(owner);
    await page.keyboard.press('Enter');
    const sentence = await page.getByTestId('sentence').textContent();
    expect(sentence!.split(' ').length).toBeGreaterThanOrEqual(3);
    await look(page, '02-check-your-inbox');

    await openSignInLink(page, await signInMail(smtp, owner), sentence!);
    await page.waitForURL(`${stack.consoleUrl}/t/${tenantId}/overview`);
    await page.getByRole('heading', { name: 'Plan and limits' }).waitFor();
    await page.getByRole('img', { name: /Requests, logins and mails per hour/ }).waitFor();
    await look(page, '03-overview');

    // An organization: the API's refusal of a whitelist entry shows under that entry.
    await page.getByRole('link', { name: 'Organizations' }).click();
    await page.getByText('No organizations yet').waitFor();
    await look(page, '04-organizations-empty');
    await page.getByRole('button', { name: 'New organization' }).click();
    await page.getByLabel('Name').fill('Acme Books');
    await page.getByRole('textbox', { name: 'Whitelist domain 1', exact: true }).fill('ftp://books.example.com');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.locator('#domain-0-error').getByText(/https/).waitFor();
    await look(page, '05-organization-invalid-domain');
    await page.getByRole('textbox', { name: 'Whitelist domain 1', exact: true }).fill(example.origin);
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByText('No applications yet').waitFor();
    made.organizationUrl = page.url().replace(/\/applications$/, '');

    // A web application, and its integration page.
    await page.getByRole('button', { name: 'New application' }).click();
    await look(page, '06-new-application');
    await page.getByLabel('Name').fill('Acme Books web');
    await page.getByLabel(/^Web/).check();
    await page.getByRole('button', { name: 'Create application' }).click();
    await page.getByRole('heading', { name: /Acme Books web/ }).waitFor();
    made.integrationUrl = page.url();
    await page.getByRole('button', { name: 'Add a callback URL' }).click();
    await page.getByRole('textbox', { name: 'Callback URL 1', exact: true }).fill(`${example.origin}/callback`);
    await page.getByRole('button', { name: 'Save callback URLs' }).click();
    await page.getByText('Callback URLs saved.').waitFor();

    await page.getByRole('button', { name: 'Copy client id' }).click();
    made.clientId = await clipboard(page);
    expect(made.clientId).toBe(await page.getByTestId('client-id').textContent());
    expect(await page.getByLabel('Client secret', { exact: true }).textContent()).toMatch(/^•+$/);
    // Copy reads the secret from the API (an audited read) before it writes the clipboard.
    await page.getByRole('button', { name: 'Copy client secret' }).click();
    await page.getByRole('button', { name: 'Copy client secret' }).filter({ hasText: 'Copied' }).waitFor();
    made.clientSecret = await clipboard(page);
    expect(made.clientSecret).not.toBe(made.clientId);
    await page.getByRole('button', { name: 'Reveal' }).click();
    await page.getByRole('button', { name: 'Hide' }).waitFor();
    expect(await page.getByLabel('Client secret', { exact: true }).textContent()).toBe(made.clientSecret);
    await look(page, '07-integration');
    await page.getByRole('button', { name: 'Hide' }).click();

    // The credentials work: the example app signs a user in with them.
    example.start({
      sesameUrl: stack.publicBaseUrl,
      clientId: made.clientId,
      clientSecret: made.clientSecret,
      appName: 'Acme Books',
      logger: { log: () => undefined, error: () => undefined },
    });
    const user = uniqueEmail('acme-reader');
    const shop = await browser.context.newPage();
    await shop.goto(`${example.origin}/`);
    await shop.fill('#email', user);
    await Promise.all([shop.waitForNavigation(), shop.click('#send-link')]);
    await shop.goto(linkIn(await smtp.next(user)));
    await Promise.all([shop.waitForURL(`${example.origin}/`), shop.click('button[type=submit]')]);
    expect(await shop.textContent('#user-email')).toBe(user);
    await shop.close();

    // No secret is kept by the pages, nor put in a URL.
    const stored = await page.evaluate<string>(
      'JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + location.href',
    );
    expect(stored).not.toContain(made.clientSecret);
  });

  it('Try it sends a real login link to the member and follows the attempt and its e-mail live until it completes', async () => {
    const { page } = browser;
    await page.goto(made.integrationUrl);
    await page.getByRole('button', { name: 'Send me a login link' }).click();
    const sentence = await page.getByTestId('try-it-sentence').textContent();
    const mail = await smtp.next(owner);
    expect(mail.text).toContain(sentence);
    await page.getByTestId('try-it-status').getByText('Sent').waitFor();
    await look(page, '08-try-it-sent');
    const tab = await browser.context.newPage();
    await tab.goto(linkIn(mail));
    await Promise.all([tab.waitForURL(new RegExp(`^${example.origin}/`)), tab.click('button[type=submit]')]);
    await tab.close();
    await page.getByTestId('try-it-status').getByText('Signed in: the integration works').waitFor();
  });

  it.each([
    ['09-users', 'users', 'Users'],
    ['10-login-activity', 'login-activity', 'Login activity'],
    ['11-organization-api-keys', 'api-keys', 'API keys'],
    ['12-organization-settings', 'settings', 'Settings'],
  ])('shows the organization screen %s', async (name, path, tab) => {
    const { page } = browser;
    await page.goto(`${made.organizationUrl}/${path}`);
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: tab }).waitFor();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await look(page, name);
  });

  it("shows a user's passkeys on the user's page, and removes one after a confirmation", async () => {
    const { page } = browser;
    const organizationId = made.organizationUrl.split('/').pop()!;
    const users = await request(stack.origin)
      .get(`/api/v2/organization/${organizationId}/user`)
      .query({ email: owner })
      .set('Authorization', `Bearer ${tenantKey}`)
      .expect(200);
    const userId = users.body.data[0].id as string;
    const day = 24 * 3600_000;
    await insertPasskey(organizationId, userId, {
      name: 'Chrome on macOS',
      createdAt: new Date(Date.now() - 30 * day),
      lastUsedAt: new Date(Date.now() - day),
    });
    await insertPasskey(organizationId, userId, {
      name: 'Security key',
      deviceType: 'singleDevice',
      backedUp: false,
      transports: ['usb'],
      rpId: 'shop.example.com',
    });

    await page.goto(`${made.organizationUrl}/users`);
    await page.getByRole('link', { name: owner }).click();
    await page.waitForURL(`${made.organizationUrl}/users/${userId}`);
    await page.getByRole('cell', { name: 'Security key', exact: true }).waitFor();
    // Where each signs in: the hosted login page, or the application page it was made on.
    await page.getByRole('cell', { name: 'shop.example.com', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'The hosted login page', exact: true }).waitFor();
    await look(page, '09-user-passkeys');

    await page.getByRole('button', { name: 'Remove the passkey Security key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove the passkey Security key?' });
    await dialog.getByRole('button', { name: 'Remove passkey' }).click();
    await page.getByRole('cell', { name: 'Security key', exact: true }).waitFor({ state: 'detached' });
    const left = await request(stack.origin)
      .get(`/api/v2/organization/${organizationId}/user/${userId}/passkey`)
      .set('Authorization', `Bearer ${tenantKey}`)
      .expect(200);
    expect(left.body.data.map((passkey: { name: string }) => passkey.name)).toEqual(['Chrome on macOS']);
  });

  it.each([
    ['13-tenant-api-keys', 'api-keys'],
    ['14-members', 'members'],
    ['15-audit-log', 'audit-log'],
  ])('shows the tenant screen %s', async (name, path) => {
    const { page } = browser;
    await page.goto(`${stack.consoleUrl}/t/${tenantId}/${path}`);
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await look(page, name);
  });

  it('shows keyboard focus on the organization form: Tab reaches the passkey policy, and it is marked', async () => {
    const { page } = browser;
    await page.goto(`${made.organizationUrl}/settings`);
    const policy = page.getByLabel('Passkeys');
    await policy.focus();
    // Back and forth with the keyboard, so the browser shows focus as it does for keyboard users.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(
      policy.evaluate((element) => element === element.ownerDocument.activeElement && element.matches(':focus-visible')),
    ).resolves.toBe(true);
    await look(page, '12-organization-settings-keyboard-focus');
  });

  it('deletes an organization only after its name is typed', async () => {
    const { page } = browser;
    const created = ((await consoleCall(page, tenantId, 'POST', 'organization', { name: 'Short-lived' })).body as { id: string }).id;
    await page.goto(`${stack.consoleUrl}/t/${tenantId}/organizations/${created}/settings`);
    await page.getByRole('button', { name: 'Delete organization' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Short-lived?' });
    await expect(dialog.getByRole('button', { name: 'Delete organization' }).isDisabled()).resolves.toBe(true);
    await dialog.getByLabel(/Type Short-lived to confirm/).fill('Short-lived');
    await look(page, '16-delete-organization');
    await dialog.getByRole('button', { name: 'Delete organization' }).click();
    await page.waitForURL(`${stack.consoleUrl}/t/${tenantId}/organizations`);
    await request(stack.origin).get(`/api/v2/organization/${created}`).set('Authorization', `Bearer ${tenantKey}`).expect(404);
    expect(await consoleCall(page, tenantId, 'GET', `organization/${created}`)).toEqual({
      status: 404,
      body: expect.objectContaining({ code: 'not_found' }),
    });
  });

  it('a lost session sends the person to sign in, and back to the page they were on', async () => {
    const { page, context } = browser;
    const page2 = `${made.organizationUrl}/login-activity`;
    await page.goto(page2);
    await page.getByRole('navigation', { name: 'Organization' }).waitFor();
    await context.clearCookies({ name: 'sesame_console_session' });
    await page.getByRole('link', { name: 'Users' }).click();
    await page.waitForURL(`${stack.consoleUrl}/sign-in?session=ended`);
    await page.getByText('Your session ended').waitFor();
    await signInFromForm(page, owner);
    await page.waitForURL(`${made.organizationUrl}/users`);
  });

  it('shows a viewer no secret and no control that changes anything, and the API refuses the viewer’s changes', async () => {
    const viewer = uniqueEmail('console-viewer');
    expect((await consoleCall(browser.page, tenantId, 'POST', 'tenant/member', { email: viewer, role: 'viewer' })).status).toBe(201);
    const viewing = await launchBrowser({ artifacts: 'console-viewer', viewport: { width: 1280, height: 860 } });
    try {
      const { page } = viewing;
      await page.goto(`${stack.consoleUrl}/sign-in`);
      await signInFromForm(page, viewer);
      await page.waitForURL(`${stack.consoleUrl}/t/${tenantId}/overview`);

      await page.goto(made.integrationUrl);
      await page.getByText('Only admins and owners see the client secret.').waitFor();
      expect(await page.content()).not.toContain(made.clientSecret);
      await expect(page.getByRole('button', { name: /Rotate|Save|Send me a login link|Add|Remove/ }).count()).resolves.toBe(0);
      await viewing.screenshot(page, 'integration-as-viewer');
      await page.goto(`${stack.consoleUrl}/t/${tenantId}/organizations`);
      await page.getByRole('link', { name: 'Acme Books' }).waitFor();
      await expect(page.getByRole('button', { name: 'New organization' }).count()).resolves.toBe(0);

      const refused = await consoleCall(page, tenantId, 'POST', 'organization', { name: 'Not allowed' });
      expect(refused).toEqual({ status: 403, body: expect.objectContaining({ code: 'insufficient_role' }) });
      const tried = await page.evaluate(
        async ({ tenant, url }) => {
          const [organizationId, applicationId] = /organizations\/([^/]+)\/applications\/([^/]+)/.exec(url)!.slice(1);
          const { csrfToken } = (await (await fetch('/console/api/session')).json()) as { csrfToken: string };
          const headers = { 'content-type': 'application/json', 'x-csrf-token': csrfToken, 'sesame-tenant': tenant };
          return (await fetch('/console/api/try_it', { method: 'POST', headers, body: JSON.stringify({ organizationId, applicationId }) }))
            .status;
        },
        { tenant: tenantId, url: made.integrationUrl },
      );
      expect(tried).toBe(403);
    } finally {
      await viewing.close();
    }
  });

  it('tells someone who signs in but belongs to no tenant so, and nothing else', async () => {
    const stranger = uniqueEmail('console-stranger');
    const strangers = await launchBrowser({ artifacts: 'console', viewport: { width: 1280, height: 860 } });
    try {
      const { page } = strangers;
      await page.goto(`${stack.consoleUrl}/sign-in`);
      await signInFromForm(page, stranger);
      await page.waitForURL(`${stack.consoleUrl}/no-tenant`);
      await page.getByRole('heading', { name: 'You are not a member of any tenant' }).waitFor();
      expect(await page.getByRole('navigation').count()).toBe(0);
      await expectAccessible(page, 'not a member');
      await strangers.screenshot(page, '17-not-a-member');
    } finally {
      await strangers.close();
    }
  });

  describe('signing in from any device', () => {
    const phoneViewport = { width: 390, height: 844 };
    let phone: TestBrowser;
    /** Every page the phone has received. */
    let seenOnPhone: string[];

    beforeAll(async () => {
      phone = await launchBrowser({ artifacts: 'console', viewport: phoneViewport });
      seenOnPhone = recordDocuments(phone.page);
    });
    afterAll(() => phone?.close());

    /** A new member of the tenant (a fresh address: no allowedDate to wait for). */
    async function newMember(): Promise<string> {
      const email = uniqueEmail('console-device');
      await request(stack.origin)
        .post('/api/v2/tenant/member')
        .set('Authorization', `Bearer ${tenantKey}`)
        .send({ email, role: 'viewer' })
        .expect(201);
      return email;
    }

    /** The desktop asks on the sign-in page; its waiting page shows the sentence, the approval number and a code field. */
    async function askOnDesktop(page: Page, email: string): Promise<{ approvalNumber: string; mail: ReceivedMail }> {
      await page.goto(`${stack.consoleUrl}/sign-in`);
      await page.fill('#email', email);
      await page.keyboard.press('Enter');
      const approvalNumber = (await page.getByTestId('approval-number').textContent())!;
      expect(approvalNumber).toMatch(/^[1-9]\d$/);
      expect(twoDigitNumbersIn(await page.content())).toContain(approvalNumber);
      await page.getByLabel('Or type the 6-digit code from the e-mail').waitFor();
      return { approvalNumber, mail: await signInMail(smtp, email) };
    }

    /** The phone opens the link and goes to "Sign in on the device where you asked". */
    async function openApprovalOnPhone(mail: ReceivedMail): Promise<void> {
      await phone.page.goto(linkIn(mail));
      await Promise.all([phone.page.waitForNavigation({ waitUntil: 'load' }), phone.page.click('#approve')]);
      await phone.page.locator('input[name=number]').waitFor();
    }

    it('the number the desktop shows, typed on the phone, signs the desktop in without a click; the phone never sees it', async () => {
      const desktop = await launchBrowser({ artifacts: 'console', viewport: { width: 1280, height: 860 } });
      try {
        const email = await newMember();
        const { approvalNumber, mail } = await askOnDesktop(desktop.page, email);
        await expectAccessible(desktop.page, 'waiting for the link');
        await desktop.screenshot(desktop.page, '18-check-your-inbox-waiting');
        await desktop.page.emulateMedia({ colorScheme: 'dark' });
        await expectAccessible(desktop.page, 'waiting for the link (dark)');
        await desktop.screenshot(desktop.page, '18-check-your-inbox-waiting-dark');

        await openApprovalOnPhone(mail);
        expectApprovalNumberAbsent([mail.text, mail.html, ...seenOnPhone], approvalNumber);
        await phone.page.fill('input[name=number]', approvalNumber);
        await Promise.all([phone.page.waitForNavigation({ waitUntil: 'load' }), phone.page.click('button[type=submit]')]);
        expect(await phone.page.textContent('#outcome')).toBe('Approved — go back to the other device');
        await phone.screenshot(phone.page, '19-phone-approved');

        await desktop.page.waitForURL(`${stack.consoleUrl}/t/${tenantId}/overview`);
        expect(
          await desktop.page.evaluate(async () => ((await (await fetch('/console/api/session')).json()) as { email: string }).email),
        ).toBe(email);
      } finally {
        await desktop.close();
      }
    });

    it('a wrong number on the phone approves nothing; the desktop keeps waiting and signs in with the e-mail’s code', async () => {
      const desktop = await launchBrowser({ artifacts: 'console', viewport: { width: 1280, height: 860 } });
      try {
        const email = await newMember();
        const { approvalNumber, mail } = await askOnDesktop(desktop.page, email);
        await openApprovalOnPhone(mail);
        await phone.page.fill('input[name=number]', wrongApprovalNumber(approvalNumber));
        await Promise.all([phone.page.waitForNavigation({ waitUntil: 'load' }), phone.page.click('button[type=submit]')]);
        expect(await phone.page.textContent('#outcome')).toBe('That number did not match');
        expectApprovalNumberAbsent([mail.text, mail.html, ...seenOnPhone], approvalNumber);

        const code = desktop.page.getByLabel('Or type the 6-digit code from the e-mail');
        await code.fill(codeIn(mail) === '000000' ? '111111' : '000000');
        await desktop.page.getByRole('button', { name: 'Sign in with the code' }).click();
        await desktop.page
          .getByRole('alert')
          .getByText(/not right/)
          .waitFor();
        await desktop.screenshot(desktop.page, '20-check-your-inbox-wrong-code');
        await code.fill(codeIn(mail));
        await desktop.page.getByRole('button', { name: 'Sign in with the code' }).click();
        await desktop.page.waitForURL(`${stack.consoleUrl}/t/${tenantId}/overview`);
      } finally {
        await desktop.close();
      }
    });

    it('the link opened in another tab of the same browser signs the first tab in too', async () => {
      const desktop = await launchBrowser({ artifacts: 'console', viewport: { width: 1280, height: 860 } });
      try {
        const email = await newMember();
        const { mail } = await askOnDesktop(desktop.page, email);
        const secondTab = await desktop.context.newPage();
        await secondTab.goto(linkIn(mail));
        await secondTab.click('button[type=submit]');
        await secondTab.waitForURL(`${stack.consoleUrl}/t/${tenantId}/overview`);
        await desktop.page.waitForURL(`${stack.consoleUrl}/t/${tenantId}/overview`);
      } finally {
        await desktop.close();
      }
    });
  });

  /** On the sign-in page: the address, Enter, then the e-mailed link and Continue (its page shows the same sentence). */
  async function signInFromForm(page: Page, email: string): Promise<void> {
    await page.fill('#email', email);
    await page.keyboard.press('Enter');
    const sentence = await page.getByTestId('sentence').textContent();
    await openSignInLink(page, await signInMail(smtp, email), sentence!);
  }

  async function openSignInLink(page: Page, mail: ReceivedMail, sentence: string): Promise<void> {
    await page.goto(linkIn(mail));
    expect(await page.textContent('#sentence')).toBe(sentence);
    await page.click('button[type=submit]');
  }
});

/** A management API call from the page, as the signed-in member (with the session's CSRF token). */
async function consoleCall(
  page: Page,
  tenant: string,
  method: 'GET' | 'POST',
  path: string,
  body?: object,
): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ tenant, method, path, body }) => {
      const { csrfToken } = (await (await fetch('/console/api/session')).json()) as { csrfToken: string };
      const headers = { 'content-type': 'application/json', 'x-csrf-token': csrfToken, 'sesame-tenant': tenant };
      const answer = await fetch(`/console/api/v2/${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: answer.status, body: await answer.json() };
    },
    { tenant, method, path, body },
  );
}

async function clipboard(page: Page): Promise<string> {
  return page.evaluate<string>('navigator.clipboard.readText()');
}

/** The next sign-in e-mail to the address (an invitation that came first is passed over). */
async function signInMail(smtp: SmtpSink, email: string): Promise<ReceivedMail> {
  for (;;) {
    const mail = await smtp.next(email);
    if (/\/v1\/login_link\?token=/.test(mail.text)) return mail;
  }
}
