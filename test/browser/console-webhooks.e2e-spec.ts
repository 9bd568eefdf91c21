import { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { launchBrowser, lookAt, TestBrowser } from '../support/browser';
import { CONSOLE_SETUP_TIMEOUT_MS, ConsoleStack, startConsoleStack } from '../support/console';
import { uniqueEmail } from '../support/login';
import { PLATFORM_KEY, UNTHROTTLED_ENV } from '../support/management';
import { linkIn, ReceivedMail, SmtpSink } from '../support/smtp-sink';
import { ThrowawayDatabase } from '../support/throwaway-database';
import { bodyOf, ReceivedWebhook, WebhookReceiver } from '../webhooks/receiver';

/**
 * The console's Webhooks screen in Chromium, against the whole stack and a receiver on loopback: an
 * owner adds an endpoint (the API's refusal of a URL shows under it), sees its secret once, sends a
 * test event and sees it delivered with its try; then every try failing, Redeliver, and success;
 * rotation, disabling; a viewer sees it all and can change nothing. Light and dark, axe-checked,
 * with screenshots in test-artifacts/console-webhooks/.
 */
jest.setTimeout(120_000);

const VIEWPORT = { width: 1280, height: 860 };
/** WEBHOOK_RETRY_DELAYS_MS below: three retries, so four tries in all. */
const TRIES = 4;

describe('the console’s Webhooks screen, in a browser', () => {
  const smtp = new SmtpSink();
  const receiver = new WebhookReceiver();
  const owner = uniqueEmail('webhooks-owner');
  const viewer = uniqueEmail('webhooks-viewer');
  const runDatabaseUrl = process.env.DATABASE_URL;
  /** Its own database: the dispatcher takes every event of its database, and other files' stacks must not try this receiver. */
  let database: ThrowawayDatabase;
  let stack: ConsoleStack;
  let browser: TestBrowser;
  let tenantId: string;
  let tenantKey: string;
  /** Filled as the tests go: where the later ones start, and the secret the first one was shown. */
  const made = { endpointUrl: '', secret: '' };

  beforeAll(async () => {
    await smtp.start();
    await receiver.start();
    database = await ThrowawayDatabase.create();
    // `console:setup` and the console lock follow DATABASE_URL (Jest gives each file its own process.env):
    // the console's system tenant is made in this file's database, where its apps run.
    process.env.DATABASE_URL = database.url;
    stack = await startConsoleStack(smtp.url, {
      env: {
        ...UNTHROTTLED_ENV,
        API_KEY_CACHE_SECONDS: '0',
        DATABASE_URL: database.url,
        WEBHOOK_ALLOW_HTTP_LOOPBACK: 'on',
        WEBHOOK_DISPATCH_INTERVAL_MS: '50',
        WEBHOOK_RETRY_DELAYS_MS: '50,50,50',
      },
    });
    const created = await request(stack.origin)
      .post('/api/v2/tenant')
      .set('Authorization', `Bearer ${PLATFORM_KEY}`)
      .send({ name: 'Acme', plan: 'pro', ownerEmail: owner })
      .expect(201);
    tenantId = created.body.tenant.id;
    tenantKey = created.body.apiKey.key;
    browser = await launchBrowser({ artifacts: 'console-webhooks', viewport: VIEWPORT });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.origin });
  }, CONSOLE_SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await receiver.stop();
    await smtp.stop();
    process.env.DATABASE_URL = runDatabaseUrl;
    await database?.drop();
  });

  const look = (page: Page, name: string, shooter: TestBrowser = browser) => lookAt(shooter, page, name);

  /** The deliveries on the endpoint's page, newest first. */
  const deliveries = (page: Page) => page.locator('ol.deliveries > li');
  const pingsReceived = () => receiver.received.filter((hook) => bodyOf(hook).type === 'ping');

  it('the owner adds an endpoint (a refused URL is explained under it) and is shown its secret once', async () => {
    const { page } = browser;
    await page.goto(`${stack.consoleUrl}/sign-in`);
    await signIn(page, smtp, owner);
    await page.waitForURL(`${stack.consoleUrl}/t/${tenantId}/overview`);

    await page.getByRole('navigation', { name: 'Tenant' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No webhook endpoints yet').waitFor();
    await look(page, '01-webhooks-empty');

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const form = page.getByRole('form', { name: 'Add an endpoint' });
    await form.getByLabel('URL').fill('https://10.1.2.3/hooks');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await page.locator('#webhook-url-error').filter({ hasText: /./ }).waitFor();
    expect(await form.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
    await look(page, '02-add-endpoint-refused-url');

    await form.getByLabel('URL').fill(receiver.url);
    await form.getByLabel('Description (optional)').fill('The test receiver');
    await form.getByLabel('Only the events checked').check();
    await form.getByLabel(/^user\.created/).check();
    await form.getByLabel(/^user\.signed_in/).check();
    await look(page, '02-add-endpoint-events');
    await form.getByRole('button', { name: 'Add endpoint' }).click();

    const dialog = page.getByRole('dialog', { name: 'Endpoint added: its signing secret' });
    made.secret = (await dialog.getByTestId('webhook-secret').textContent())!;
    expect(made.secret).toMatch(/^whsec_/);
    await look(page, '03-secret-shown-once');
    await dialog.getByRole('button', { name: 'Copy the signing secret' }).click();
    await dialog.getByRole('button', { name: 'Copy the signing secret' }).filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(made.secret);
    await dialog.getByRole('button', { name: 'I have stored the secret' }).click();
    await dialog.waitFor({ state: 'detached' });

    const row = page.getByRole('row').filter({ hasText: receiver.url });
    await row.getByText('user.created, user.signed_in').waitFor();
    await row.getByText('Enabled').waitFor();
    expect(await page.content()).not.toContain(made.secret);
    const stored = await page.evaluate<string>(
      'JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + location.href',
    );
    expect(stored).not.toContain(made.secret);
    await look(page, '04-webhooks-list');

    await row.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('heading', { name: 'Webhook endpoint' }).waitFor();
    await page.getByText('No deliveries yet').waitFor();
    made.endpointUrl = page.url();
  });

  it('sends a test event: the delivery shows as succeeded, with its try, and verifies with the secret shown', async () => {
    const { page } = browser;
    await page.goto(made.endpointUrl);
    await page.getByRole('button', { name: 'Send test event' }).click();

    const ping = deliveries(page).first();
    await ping.getByText('Succeeded').waitFor();
    await ping.getByText('1 attempt', { exact: true }).waitFor();
    await ping.getByText(/^Last answer 200 after \d+ ms$/).waitFor();
    await ping.getByText('Request and answers').click();
    await ping.getByText(/"type": "ping"/).waitFor();
    const tries = ping.getByRole('row');
    expect(await tries.count()).toBe(2);
    expect(await tries.nth(1).getByText('200', { exact: true }).count()).toBe(1);
    await tries.nth(1).getByText('ok', { exact: true }).waitFor();

    const [received] = pingsReceived();
    expect(verified(made.secret, received)).toMatchObject({ type: 'ping', data: { endpointId: made.endpointUrl.split('/').pop() } });
    await look(page, '05-endpoint-delivered');
  });

  it('a receiver that answers 500 to every try: the delivery fails; Redeliver sends it again and it succeeds', async () => {
    const { page } = browser;
    await page.goto(made.endpointUrl);
    await deliveries(page).first().getByText('Succeeded').waitFor();
    receiver.answerWith(...Array<number>(TRIES).fill(500));
    await page.getByRole('button', { name: 'Send test event' }).click();

    // Newest first: the new delivery comes above the first test's.
    await deliveries(page).nth(1).waitFor();
    const failing = deliveries(page).first();
    await failing.getByText('Failed').waitFor();
    await failing.getByText(`${TRIES} attempts`).waitFor();
    await failing.getByText(/^Last answer 500 after \d+ ms$/).waitFor();
    await failing.getByText('Request and answers').click();
    await expect(failing.getByRole('row').count()).resolves.toBe(TRIES + 1);
    await expect(failing.getByText('not now', { exact: true }).count()).resolves.toBe(TRIES);
    await look(page, '06-endpoint-failed');

    const failedIds = pingsReceived()
      .filter((hook) => hook.answered === 500)
      .map((hook) => hook.headers['webhook-id']);
    expect(new Set(failedIds).size).toBe(1);
    await failing.getByRole('button', { name: 'Redeliver' }).click();
    await failing.getByText('Succeeded').waitFor();
    await failing.getByText(/^Last answer 200 after \d+ ms$/).waitFor();
    const redelivered = await receiver.next((hook) => hook.answered === 200 && hook.headers['webhook-id'] === failedIds[0]);
    expect(verified(made.secret, redelivered).type).toBe('ping');
    await look(page, '07-endpoint-redelivered');
  });

  it('rotates the secret (the new one, shown once, signs the next delivery), and disables and enables the endpoint', async () => {
    const { page } = browser;
    await page.goto(made.endpointUrl);
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'The new signing secret' });
    const rotated = (await dialog.getByTestId('webhook-secret').textContent())!;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(made.secret);
    await look(page, '08-rotated-secret');
    await dialog.getByRole('button', { name: 'I have stored the secret' }).click();

    const earlier = new Set(receiver.received);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await deliveries(page).nth(2).waitFor();
    await deliveries(page).first().getByText('Succeeded').waitFor();
    const next = await receiver.next((hook) => bodyOf(hook).type === 'ping' && !earlier.has(hook));
    expect(verified(rotated, next).type).toBe('ping');

    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('region', { name: 'Endpoint' }).getByText('Disabled', { exact: true }).waitFor();
    await expect(page.getByRole('button', { name: 'Send test event' }).isDisabled()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('region', { name: 'Endpoint' }).getByText('Enabled', { exact: true }).waitFor();
  });

  it('shows a viewer the endpoints and their deliveries, and no control that changes anything', async () => {
    await request(stack.origin)
      .post('/api/v2/tenant/member')
      .set('Authorization', `Bearer ${tenantKey}`)
      .send({ email: viewer, role: 'viewer' })
      .expect(201);
    const viewing = await launchBrowser({ artifacts: 'console-webhooks', viewport: VIEWPORT });
    try {
      const { page } = viewing;
      await page.goto(`${stack.consoleUrl}/sign-in`);
      await signIn(page, smtp, viewer);
      await page.waitForURL(`${stack.consoleUrl}/t/${tenantId}/overview`);

      await page.goto(`${stack.consoleUrl}/t/${tenantId}/webhooks`);
      await page.getByRole('link', { name: receiver.url }).waitFor();
      await expect(page.getByRole('button', { name: 'Add endpoint' }).count()).resolves.toBe(0);

      await page.goto(made.endpointUrl);
      await deliveries(page).first().getByText('Succeeded').waitFor();
      const changes = page.getByRole('button', { name: /Send test event|Edit|Disable|Enable|Rotate|Delete|Redeliver/ });
      await expect(changes.count()).resolves.toBe(0);
      await expect(page.getByRole('heading', { name: 'Delete this endpoint' }).count()).resolves.toBe(0);
      await look(page, '09-endpoint-as-viewer', viewing);
    } finally {
      await viewing.close();
    }
  });

  it('deletes the endpoint after a confirmation', async () => {
    const { page } = browser;
    await page.goto(made.endpointUrl);
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this endpoint?' });
    await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.waitForURL(`${stack.consoleUrl}/t/${tenantId}/webhooks`);
    await page.getByText('No webhook endpoints yet').waitFor();
    await request(stack.origin)
      .get(`/api/v2/tenant/webhook_endpoint/${made.endpointUrl.split('/').pop()}`)
      .set('Authorization', `Bearer ${tenantKey}`)
      .expect(404);
  });
});

/** Verified with the Standard Webhooks reference library, not with Sesame's code. */
function verified(secret: string, hook: ReceivedWebhook): { type: string; data: Record<string, unknown> } {
  const headers = {
    'webhook-id': String(hook.headers['webhook-id']),
    'webhook-timestamp': String(hook.headers['webhook-timestamp']),
    'webhook-signature': String(hook.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(hook.body, headers) as { type: string; data: Record<string, unknown> };
}

/** On the sign-in page: the address, Enter, then the e-mailed link and Continue. */
async function signIn(page: Page, smtp: SmtpSink, email: string): Promise<void> {
  await page.fill('#email', email);
  await page.keyboard.press('Enter');
  await page.getByTestId('sentence').waitFor();
  await page.goto(linkIn(await signInMail(smtp, email)));
  await page.click('button[type=submit]');
}

/** The next sign-in e-mail to the address (an invitation that came first is passed over). */
async function signInMail(smtp: SmtpSink, email: string): Promise<ReceivedMail> {
  for (;;) {
    const mail = await smtp.next(email);
    if (/\/v1\/login_link\?token=/.test(mail.text)) return mail;
  }
}
