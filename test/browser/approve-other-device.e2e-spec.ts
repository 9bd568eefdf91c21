import request from 'supertest';
import { launchBrowser, TestBrowser } from '../support/browser';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { GatewayStack, startGatewayStack } from '../support/gateway';
import { pkcePair, uniqueEmail } from '../support/login';
import { LoopbackListener } from '../support/loopback';
import { linkIn, SmtpSink } from '../support/smtp-sink';

type Page = TestBrowser['page'];

/**
 * Two devices in Chromium: device A (a desktop app's sign-in window on the hosted page) asks for a
 * link; device B (a phone-sized browser without A's cookies) opens the e-mail's link and approves
 * by picking the phrase A shows. A lands on the app's callback without a click. Screenshots go to
 * test-artifacts/approve-other-device/.
 */
describe('hosted login approved from another device', () => {
  const smtp = new SmtpSink();
  const listener = new LoopbackListener('/callback');
  let gateway: GatewayStack;
  let desktop: ApplicationFixture;
  let deviceA: TestBrowser;
  let deviceB: TestBrowser;

  async function askOnDeviceA(state: string) {
    const { verifier, challenge } = pkcePair();
    const authorize = new URL(`${gateway.issuer}/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: desktop.clientId,
      redirect_uri: listener.redirectUri,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    await deviceA.page.goto(authorize.href);
    const email = uniqueEmail('approve-browser');
    await deviceA.page.fill('input[name=email]', email);
    await submit(deviceA.page);
    const sentence = await textOf(deviceA.page, '#sentence');
    return { verifier, sentence, link: linkIn(await smtp.next(email)) };
  }

  /** Device B: the link, then "Sign in on the device where you asked". */
  async function openApprovalOnDeviceB(link: string) {
    await deviceB.page.goto(link);
    // B did not ask (no cookie of A's): the way to approve comes first.
    expect(await deviceB.page.locator('main a.button, main form button').first().textContent()).toBe('Sign in on the device where you asked');
    await deviceB.screenshot(deviceB.page, 'b-01-link-page');
    await Promise.all([deviceB.page.waitForNavigation({ waitUntil: 'load' }), deviceB.page.click('#approve')]);
    expect(await textOf(deviceB.page, 'h1')).toBe('Sign in on the device where you asked');
    const inputs = await deviceB.page.locator('input[name=sentence]').all();
    return Promise.all(inputs.map(async (input) => (await input.getAttribute('value')) ?? ''));
  }

  beforeAll(async () => {
    await smtp.start();
    await listener.start();
    gateway = await startGatewayStack(smtp.url);
    const management = gateway.stack.management.url;
    const tenant = await createTenant(management, 'free');
    const organization = await createOrganization(management, tenant, { name: 'Acme Notes' });
    desktop = await createApplication(management, organization, { type: 'desktop', name: 'Acme Notes for Desktop', callbackUrls: ['http://127.0.0.1/callback'] });
    deviceA = await launchBrowser({ artifacts: 'approve-other-device' });
    deviceB = await launchBrowser({ artifacts: 'approve-other-device', viewport: { width: 390, height: 844 } });
  }, 60_000);

  afterAll(async () => {
    await deviceA?.close();
    await deviceB?.close();
    await gateway?.close();
    await listener.stop();
    await smtp.stop();
  });

  it('the right phrase picked on B signs A in without a click; B is told and stays put', async () => {
    const state = `approve-${Date.now()}`;
    const { verifier, sentence, link } = await askOnDeviceA(state);
    await deviceA.screenshot(deviceA.page, 'a-01-check-inbox');

    // A mail scanner opens the link first: nothing happens.
    const scanned = new URL(link);
    await request(scanned.origin).head(scanned.pathname + scanned.search).expect(200);
    await request(scanned.origin).get(scanned.pathname.replace(/login_link$/, 'login_link/approve') + scanned.search).expect(200);

    const choices = await openApprovalOnDeviceB(link);
    expect(choices).toHaveLength(3);
    expect(choices).toContain(sentence);
    expect(await textOf(deviceB.page, '#requested-from')).toBe('Chrome on Linux');
    await deviceB.screenshot(deviceB.page, 'b-02-pick-the-phrase');

    // A bot presses the button without picking: nothing changes.
    await submit(deviceB.page);
    expect(await textOf(deviceB.page, 'h1')).toBe('This request cannot be completed');
    await deviceB.page.goBack();

    const arrived = listener.nextRequest();
    await deviceB.page.check(`input[name=sentence][value="${sentence}"]`);
    await submit(deviceB.page);
    expect(await textOf(deviceB.page, '#outcome')).toBe('The other device is now signed in');
    expect(new URL(deviceB.page.url()).pathname).toBe('/api/v1/login_link/approve');
    await deviceB.screenshot(deviceB.page, 'b-03-approved');

    const callback = await arrived;
    expect(callback.searchParams.get('state')).toBe(state);
    await deviceA.page.waitForURL((url) => url.port === String(listener.port));
    await deviceA.screenshot(deviceA.page, 'a-02-signed-in-without-a-click');
    await request(gateway.stack.auth.url)
      .post('/api/v1/verify')
      .type('form')
      .send({ client_id: desktop.clientId, code: callback.searchParams.get('code'), redirect_uri: listener.redirectUri, code_verifier: verifier })
      .expect(200);
  });

  it('a wrong phrase approves nothing: A is sent back to the app with the error, never with a code', async () => {
    const state = `wrong-${Date.now()}`;
    const { sentence, link } = await askOnDeviceA(state);
    const choices = await openApprovalOnDeviceB(link);
    const arrived = listener.nextRequest();
    await deviceB.page.check(`input[name=sentence][value="${choices.find((choice) => choice !== sentence)}"]`);
    await submit(deviceB.page);
    expect(await textOf(deviceB.page, '#outcome')).toBe('This sign-in was stopped');
    await deviceB.screenshot(deviceB.page, 'b-04-wrong-phrase');
    const callback = await arrived;
    expect(callback.searchParams.get('error')).toBe('login_attempt_locked');
    expect(callback.searchParams.has('code')).toBe(false);
  });
});

async function submit(page: Page): Promise<void> {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[type=submit]')]);
}

async function textOf(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).textContent()) ?? '').trim();
}
