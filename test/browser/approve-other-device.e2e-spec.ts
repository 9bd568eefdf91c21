import request from 'supertest';
import { expectApprovalNumberAbsent, recordDocuments, twoDigitNumbersIn, wrongApprovalNumber } from '../support/approval';
import { launchBrowser, TestBrowser } from '../support/browser';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { GatewayStack, startGatewayStack } from '../support/gateway';
import { pkcePair, uniqueEmail } from '../support/login';
import { LoopbackListener } from '../support/loopback';
import { codeIn, linkIn, SmtpSink } from '../support/smtp-sink';

type Page = TestBrowser['page'];

/**
 * Two devices in Chromium: device A (a desktop app's sign-in window on the hosted page) asks for a
 * link and shows the approval number; device B (a phone-sized browser without A's cookies) opens
 * the e-mail's link and approves by typing that number. A lands on the app's callback without a
 * click. B never sees the number anywhere before typing it. Screenshots go to
 * test-artifacts/approve-other-device/.
 */
describe('hosted login approved from another device', () => {
  const smtp = new SmtpSink();
  const listener = new LoopbackListener('/callback');
  let gateway: GatewayStack;
  let desktop: ApplicationFixture;
  let deviceA: TestBrowser;
  let deviceB: TestBrowser;
  /** Every page device B has received. */
  let seenOnB: string[];

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
    const approvalNumber = await textOf(deviceA.page, '#approval-number');
    expect(approvalNumber).toMatch(/^[1-9]\d$/);
    // What the absence checks below look for is found where the number is shown.
    expect(twoDigitNumbersIn(await deviceA.page.content())).toContain(approvalNumber);
    const mail = await smtp.next(email);
    return { verifier, approvalNumber, mail, link: linkIn(mail) };
  }

  /** Device B: the link, then "Sign in on the device where you asked". */
  async function openApprovalOnDeviceB(link: string) {
    await deviceB.page.goto(link);
    // B did not ask (no cookie of A's): the way to approve comes first.
    expect(await deviceB.page.locator('main a.button, main form button').first().textContent()).toBe(
      'Sign in on the device where you asked',
    );
    await deviceB.screenshot(deviceB.page, 'b-01-link-page');
    await Promise.all([deviceB.page.waitForNavigation({ waitUntil: 'load' }), deviceB.page.click('#approve')]);
    expect(await textOf(deviceB.page, 'h1')).toBe('Sign in on the device where you asked');
  }

  beforeAll(async () => {
    await smtp.start();
    await listener.start();
    gateway = await startGatewayStack(smtp.url);
    const management = gateway.stack.management.url;
    const tenant = await createTenant(management, 'free');
    // Links of 5 minutes: the e-mail's "10 minutes" could read as an approval number of 10.
    const organization = await createOrganization(management, tenant, { name: 'Acme Notes', linkTtlSeconds: 300 });
    desktop = await createApplication(management, organization, {
      type: 'desktop',
      name: 'Acme Notes for Desktop',
      callbackUrls: ['http://127.0.0.1/callback'],
    });
    deviceA = await launchBrowser({ artifacts: 'approve-other-device' });
    deviceB = await launchBrowser({ artifacts: 'approve-other-device', viewport: { width: 390, height: 844 } });
    seenOnB = recordDocuments(deviceB.page);
  }, 60_000);

  afterAll(async () => {
    await deviceA?.close();
    await deviceB?.close();
    await gateway?.close();
    await listener.stop();
    await smtp.stop();
  });

  it('the number A shows, typed on B, signs A in without a click; B never saw it, is told to go back, and stays put', async () => {
    const state = `approve-${Date.now()}`;
    const { verifier, approvalNumber, mail, link } = await askOnDeviceA(state);
    await deviceA.screenshot(deviceA.page, 'a-01-check-inbox');

    // A mail scanner opens the link first: nothing happens.
    const scanned = new URL(link);
    await request(scanned.origin)
      .head(scanned.pathname + scanned.search)
      .expect(200);
    await request(scanned.origin)
      .get(scanned.pathname.replace(/login_link$/, 'login_link/approve') + scanned.search)
      .expect(200);

    await openApprovalOnDeviceB(link);
    expect(await textOf(deviceB.page, '#requested-from')).toBe('Chrome on Linux');
    expect(await textOf(deviceB.page, '#requested-ip')).toBe('127.0.0.1');
    expect(await textOf(deviceB.page, '.warning')).toContain('do not approve');
    await deviceB.screenshot(deviceB.page, 'b-02-type-the-number');

    // A bot presses the button without a number: nothing changes.
    await submit(deviceB.page);
    expect(await textOf(deviceB.page, 'h1')).toBe('This request cannot be completed');
    await deviceB.page.goBack();
    expectApprovalNumberAbsent([mail.text, mail.html, ...seenOnB], approvalNumber);

    const arrived = listener.nextRequest();
    await deviceB.page.fill('input[name=number]', approvalNumber);
    await submit(deviceB.page);
    expect(await textOf(deviceB.page, '#outcome')).toBe('Approved — go back to the other device');
    expect(new URL(deviceB.page.url()).pathname).toBe('/api/v1/login_link/approve');
    await deviceB.screenshot(deviceB.page, 'b-03-approved');

    const callback = await arrived;
    expect(callback.searchParams.get('state')).toBe(state);
    await deviceA.page.waitForURL((url) => url.port === String(listener.port));
    await deviceA.screenshot(deviceA.page, 'a-02-signed-in-without-a-click');
    await request(gateway.stack.auth.url)
      .post('/api/v1/verify')
      .type('form')
      .send({
        client_id: desktop.clientId,
        code: callback.searchParams.get('code'),
        redirect_uri: listener.redirectUri,
        code_verifier: verifier,
      })
      .expect(200);
  });

  it('a wrong number approves nothing and ends approval; A keeps the half-typed code and signs in with it', async () => {
    const state = `wrong-${Date.now()}`;
    const { approvalNumber, mail, link } = await askOnDeviceA(state);
    // A's page waits for an approval (a request held until the attempt changes), and the person
    // starts typing the e-mail's code there.
    const heldWait = await deviceA.page.waitForRequest(/\/authorize\/watch\?/);
    const code = codeIn(mail);
    await deviceA.page.fill('input[name=code]', code.slice(0, 3));
    await openApprovalOnDeviceB(link);
    await deviceB.page.fill('input[name=number]', wrongApprovalNumber(approvalNumber));
    await submit(deviceB.page);
    expect(await textOf(deviceB.page, '#outcome')).toBe('That number did not match');
    await deviceB.screenshot(deviceB.page, 'b-04-wrong-number');
    // Approval is over for this attempt: the page no longer asks for a number, even the right one.
    await deviceB.page.goBack();
    await deviceB.page.reload();
    expect(await deviceB.page.locator('input[name=number]').count()).toBe(0);
    expectApprovalNumberAbsent([mail.text, mail.html, ...seenOnB], approvalNumber);

    // B's visit answered A's held wait (or its 20 s ran out): still pending, answered in the
    // background, so A's page did not reload over the half-typed code; the code works there.
    expect(await (await heldWait.response())?.json()).toEqual({ status: 'pending' });
    expect(await textOf(deviceA.page, '#approval-number')).toBe(approvalNumber);
    expect(await deviceA.page.inputValue('input[name=code]')).toBe(code.slice(0, 3));
    const arrived = listener.nextRequest();
    await deviceA.page.fill('input[name=code]', code);
    await submit(deviceA.page);
    const callback = await arrived;
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.has('code')).toBe(true);
  });
});

async function submit(page: Page): Promise<void> {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[type=submit]')]);
}

async function textOf(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).textContent()) ?? '').trim();
}
