import { Page } from 'playwright-core';
import { launchBrowser, TestBrowser } from '../support/browser';
import { uniqueEmail } from '../support/login';
import { codeIn, linkIn } from '../support/smtp-sink';
import { expectApprovalNumberAbsent, recordDocuments, twoDigitNumbersIn, wrongApprovalNumber } from '../support/approval';
import { ExampleStack } from './support/example-stack';

/**
 * The example app (on @sesame/client's verifyCode and loginStatus) with two devices in Chromium:
 * device A asks on the app's form; the e-mail is read on device B. The code typed on A signs A in;
 * the link approved on B (the number A shows typed there) signs A in without a click; B never
 * sees that number. A's page waits for the approval without ever reloading over a code being typed. Screenshots: test-artifacts/client-express-app-other-device/.
 */
describe('example Express app: signing in from another device', () => {
  const run = new ExampleStack();
  const { smtp, example } = run;
  let deviceA: TestBrowser;
  let deviceB: TestBrowser;
  /** Every page device B has received. */
  let seenOnB: string[];

  async function askOnDeviceA() {
    const email = uniqueEmail('express-device');
    await deviceA.page.goto(`${example.origin}/`);
    await deviceA.page.fill('#email', email);
    await submit(deviceA.page, '#send-link');
    expect(await text(deviceA.page, 'h1')).toBe('Check your inbox');
    const approvalNumber = await text(deviceA.page, '#approval-number');
    expect(twoDigitNumbersIn(await deviceA.page.content())).toContain(approvalNumber);
    return { email, approvalNumber, mail: await smtp.next(email) };
  }

  beforeAll(async () => {
    // Links of 5 minutes: the e-mail's "10 minutes" could read as an approval number of 10.
    await run.start({ linkTtlSeconds: 300 });
    deviceA = await launchBrowser({ artifacts: 'client-express-app-other-device' });
    deviceB = await launchBrowser({ artifacts: 'client-express-app-other-device', viewport: { width: 390, height: 844 } });
    seenOnB = recordDocuments(deviceB.page);
  }, 60_000);

  afterAll(async () => {
    await deviceA?.close();
    await deviceB?.close();
    await run.close();
  });

  it('the code typed on device A signs A in', async () => {
    const { email, mail } = await askOnDeviceA();
    await deviceA.page.fill('#code', '000000' === codeIn(mail) ? '111111' : '000000');
    await submit(deviceA.page, 'form[action="/signin/code"] button');
    expect(await text(deviceA.page, '#code-error')).toBe('That code is not right. After 5 wrong codes this sign-in stops.');
    const code = codeIn(mail);
    await deviceA.page.fill('#code', `${code.slice(0, 3)} ${code.slice(3)}`);
    await Promise.all([deviceA.page.waitForURL(`${example.origin}/`), deviceA.page.click('form[action="/signin/code"] button')]);
    expect(await text(deviceA.page, '#signed-in-as')).toBe(email);
    await deviceA.screenshot(deviceA.page, 'a-02-signed-in-with-code');
    await signOut(deviceA.page);
  });

  it('the number device A shows, typed on device B, signs A in without a click', async () => {
    const { email, approvalNumber, mail } = await askOnDeviceA();
    await deviceA.screenshot(deviceA.page, 'a-01-check-inbox');
    await deviceB.page.goto(linkIn(mail));
    await Promise.all([deviceB.page.waitForNavigation({ waitUntil: 'load' }), deviceB.page.click('#approve')]);
    expectApprovalNumberAbsent([mail.text, mail.html, ...seenOnB], approvalNumber);
    await deviceB.page.fill('input[name=number]', approvalNumber);
    await deviceB.screenshot(deviceB.page, 'b-01-type-the-number');
    const landed = deviceA.page.waitForURL(`${example.origin}/`);
    await submit(deviceB.page, 'button[type=submit]');
    expect(await text(deviceB.page, '#outcome')).toBe('Approved — go back to the other device');
    await landed;
    expect(await text(deviceA.page, '#signed-in-as')).toBe(email);
    await deviceA.screenshot(deviceA.page, 'a-03-signed-in-by-approval');
    await signOut(deviceA.page);
  });

  it('a wrong number typed on device B approves nothing; A keeps the half-typed code and signs in with it', async () => {
    const { email, approvalNumber, mail } = await askOnDeviceA();
    // A's page waits for an approval (a request held until the attempt changes), and the person
    // starts typing the e-mail's code there.
    const heldWait = await deviceA.page.waitForRequest(/\/signin\/wait\?/);
    const code = codeIn(mail);
    await deviceA.page.fill('#code', code.slice(0, 3));
    await deviceB.page.goto(linkIn(mail));
    await Promise.all([deviceB.page.waitForNavigation({ waitUntil: 'load' }), deviceB.page.click('#approve')]);
    await deviceB.page.fill('input[name=number]', wrongApprovalNumber(approvalNumber));
    await submit(deviceB.page, 'button[type=submit]');
    expect(await text(deviceB.page, '#outcome')).toBe('That number did not match');
    expectApprovalNumberAbsent([mail.text, mail.html, ...seenOnB], approvalNumber);
    // B's visit answered A's held wait (or its 20 s ran out): still pending, answered in the
    // background, so the page did not reload over the half-typed code.
    expect(await (await heldWait.response())?.json()).toEqual({ status: 'pending' });
    expect(await text(deviceA.page, '#approval-number')).toBe(approvalNumber);
    expect(await deviceA.page.inputValue('#code')).toBe(code.slice(0, 3));
    await deviceA.page.fill('#code', code);
    await Promise.all([deviceA.page.waitForURL(`${example.origin}/`), deviceA.page.click('form[action="/signin/code"] button')]);
    expect(await text(deviceA.page, '#signed-in-as')).toBe(email);
    await signOut(deviceA.page);
  });
});

async function signOut(page: Page): Promise<void> {
  await submit(page, '#sign-out');
}

async function submit(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click(selector)]);
}

async function text(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).textContent()) ?? '').trim();
}
