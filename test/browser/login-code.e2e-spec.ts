import request from 'supertest';
import { launchBrowser, TestBrowser } from '../support/browser';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { GatewayStack, startGatewayStack } from '../support/gateway';
import { pkcePair, uniqueEmail } from '../support/login';
import { LoopbackListener } from '../support/loopback';
import { codeIn, linkIn, SmtpSink } from '../support/smtp-sink';

type Page = TestBrowser['page'];

/**
 * The code of the e-mail on the hosted "check your inbox" page, in Chromium. Device A is the
 * browser that asked (a desktop app's sign-in window); device B is another browser, where the
 * person reads the e-mail. Screenshots go to test-artifacts/login-code/.
 */
describe('hosted login: the e-mailed code typed on the device that asked', () => {
  const smtp = new SmtpSink();
  const listener = new LoopbackListener('/callback');
  let gateway: GatewayStack;
  let desktop: ApplicationFixture;
  let deviceA: TestBrowser;
  let deviceB: TestBrowser;

  /** Device A asks for a link; returns the e-mail's code and link. */
  async function askOnDeviceA(challenge: string, state: string, locale = 'en') {
    const authorize = new URL(`${gateway.issuer}/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: desktop.clientId,
      redirect_uri: listener.redirectUri,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ui_locales: locale,
    }).toString();
    await deviceA.page.goto(authorize.href);
    const email = uniqueEmail('code-browser');
    await deviceA.page.fill('input[name=email]', email);
    await submit(deviceA.page);
    const mail = await smtp.next(email);
    return { email, code: codeIn(mail), link: linkIn(mail) };
  }

  beforeAll(async () => {
    await smtp.start();
    await listener.start();
    gateway = await startGatewayStack(smtp.url);
    const management = gateway.stack.management.url;
    const tenant = await createTenant(management, 'free');
    const organization = await createOrganization(management, tenant, { name: 'Acme Notes' });
    desktop = await createApplication(management, organization, {
      type: 'desktop',
      name: 'Acme Notes for Desktop',
      callbackUrls: ['http://127.0.0.1/callback'],
    });
    deviceA = await launchBrowser({ artifacts: 'login-code' });
    deviceB = await launchBrowser({ artifacts: 'login-code', viewport: { width: 390, height: 844 } });
  }, 60_000);

  afterAll(async () => {
    await deviceA?.close();
    await deviceB?.close();
    await gateway?.close();
    await listener.stop();
    await smtp.stop();
  });

  it('the code typed on device A signs in: the app gets code and state, and the link is then used', async () => {
    const { verifier, challenge } = pkcePair();
    const state = `code-${Date.now()}`;
    const { code, link } = await askOnDeviceA(challenge, state);
    expect(await textOf(deviceA.page, 'label[for=code]')).toBe('Or type the 6-digit code from the e-mail');
    await deviceA.screenshot(deviceA.page, '01-check-inbox-with-code-field');

    await deviceA.page.fill('input[name=code]', `${code.slice(0, 3)} ${code.slice(3)}`);
    const arrived = listener.nextRequest();
    await submit(deviceA.page);
    const callback = await arrived;
    expect(callback.searchParams.get('state')).toBe(state);
    const authorizationCode = callback.searchParams.get('code')!;
    await deviceA.screenshot(deviceA.page, '02-signed-in-with-code');
    await request(gateway.stack.auth.url)
      .post('/api/v1/verify')
      .type('form')
      .send({ client_id: desktop.clientId, code: authorizationCode, redirect_uri: listener.redirectUri, code_verifier: verifier })
      .expect(200);

    // Device B opens the e-mail's link afterwards: already used.
    await deviceB.page.goto(link);
    expect(await textOf(deviceB.page, 'h1')).toBe('This link was already used');
    await deviceB.screenshot(deviceB.page, '03-device-b-link-used');
  });

  it('a wrong code shows the page again with the error; the fifth locks the sign-in, and the link with it', async () => {
    const { challenge } = pkcePair();
    const state = `locked-${Date.now()}`;
    const { code, link } = await askOnDeviceA(challenge, state, 'de');
    const wrong = code.replace(/\d/g, (digit) => String((Number(digit) + 1) % 10));
    for (let attempt = 1; attempt <= 4; attempt++) {
      await deviceA.page.fill('input[name=code]', wrong);
      await submit(deviceA.page);
      expect(await textOf(deviceA.page, '#code-error')).toBe(
        'Dieser Code stimmt nicht. Nach 5 falschen Codes wird diese Anmeldung beendet.',
      );
    }
    await deviceA.screenshot(deviceA.page, '04-wrong-code-de');
    await deviceA.page.fill('input[name=code]', wrong);
    const arrived = listener.nextRequest();
    await submit(deviceA.page);
    const callback = await arrived;
    expect(callback.searchParams.get('error')).toBe('login_attempt_locked');
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.has('code')).toBe(false);

    await deviceB.page.goto(link);
    expect(await textOf(deviceB.page, 'h1')).toBe('This sign-in was stopped');
    await deviceB.screenshot(deviceB.page, '05-device-b-link-locked');
    const refused = listener.nextRequest();
    await submit(deviceB.page);
    expect((await refused).searchParams.get('error')).toBe('login_attempt_locked');
  });
});

/** Presses the form's button and waits for the page it leads to. */
async function submit(page: Page): Promise<void> {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[type=submit]')]);
}

async function textOf(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).textContent()) ?? '').trim();
}
