import { copyFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CDPSession } from 'playwright-core';
import request from 'supertest';
import { UserPasskeys } from '@sesame/entities';
import { expectAccessible, launchBrowser, TestBrowser } from '../support/browser';
import { query } from '../support/direct-auth';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { GatewayStack, startGatewayStack } from '../support/gateway';
import { pkcePair, uniqueEmail } from '../support/login';
import { LoopbackListener } from '../support/loopback';
import { codeIn, linkIn, SmtpSink } from '../support/smtp-sink';

type Page = TestBrowser['page'];

/** Screenshots docs/passkeys.md shows. */
const DOC_IMAGES = resolve(__dirname, '..', '..', 'docs', 'images');

/**
 * Passkeys on the hosted login page in Chromium, with a virtual authenticator (the DevTools
 * protocol's WebAuthn domain: CTAP2, internal transport, resident keys, user verification):
 * created on the offer screen after an e-mailed login, then signing in alone with the button and
 * with the e-mail field's autofill; refused in another organization and once removed. A second
 * browser without the key signs in by e-mail, as before.
 */
describe('hosted login: passkeys in the browser', () => {
  const smtp = new SmtpSink();
  const listener = new LoopbackListener('/callback');
  let gateway: GatewayStack;
  let desktop: ApplicationFixture;
  let otherOrganization: ApplicationFixture;
  let withKey: TestBrowser;
  let cdp: CDPSession;
  let authenticatorId: string;
  let email: string;

  function authorizeUrl(app: ApplicationFixture, challenge: string, state: string): string {
    const url = new URL(`${gateway.issuer}/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: listener.redirectUri,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    return url.href;
  }

  /** The e-mailed login on `page`, up to the "check your inbox" page; returns the e-mail's code. */
  async function askForEmail(page: Page, app: ApplicationFixture, address: string, challenge: string, state: string): Promise<string> {
    await page.goto(authorizeUrl(app, challenge, state));
    await page.fill('input[name=email]', address);
    await submit(page, 'button[type=submit]');
    return codeIn(await smtp.next(address));
  }

  async function exchange(callback: URL, verifier: string) {
    return request(gateway.stack.auth.url)
      .post('/api/v1/verify')
      .type('form')
      .send({
        client_id: desktop.clientId,
        code: callback.searchParams.get('code')!,
        redirect_uri: listener.redirectUri,
        code_verifier: verifier,
      })
      .expect(200);
  }

  async function credentials() {
    return (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  }

  beforeAll(async () => {
    await smtp.start();
    await listener.start();
    gateway = await startGatewayStack(smtp.url, { publicHost: 'localhost' });
    const management = gateway.stack.management.url;
    const tenant = await createTenant(management, 'free');
    const desktopApp = { type: 'desktop', name: 'Acme Notes for Desktop', callbackUrls: ['http://127.0.0.1/callback'] };
    desktop = await createApplication(management, await createOrganization(management, tenant, { name: 'Acme Notes' }), desktopApp);
    otherOrganization = await createApplication(management, await createOrganization(management, tenant, { name: 'Other Co' }), desktopApp);
    withKey = await launchBrowser({ artifacts: 'passkeys' });
    ({ cdp, authenticatorId } = await addVirtualAuthenticator(withKey));
    if (process.env.UPDATE_DOC_IMAGES === '1') await mkdir(DOC_IMAGES, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await withKey?.close();
    await gateway?.close();
    await listener.stop();
    await smtp.stop();
  });

  it('after an e-mailed login the offer screen creates a passkey, then goes on to the callback with code and state', async () => {
    const { page } = withKey;
    const { verifier, challenge } = pkcePair();
    const state = `register-${Date.now()}`;
    email = uniqueEmail('passkey-browser');
    await page.goto(authorizeUrl(desktop, challenge, state));
    await page.locator('#passkey-sign-in').waitFor({ state: 'visible' });
    expect(await page.getAttribute('#email', 'autocomplete')).toBe('username webauthn');
    await docScreenshot(withKey, page, 'passkeys-sign-in');
    await page.fill('input[name=email]', email);
    await submit(page, 'button[type=submit]');
    const code = codeIn(await smtp.next(email));
    // The page reports that this browser can make a passkey before the code is sent.
    await page.locator('input[name=passkey_offer]').waitFor({ state: 'attached' });
    await page.fill('input[name=code]', code);
    await submit(page, 'button[type=submit]');
    expect(await textOf(page, 'h1')).toBe('Use a passkey next time');
    await docScreenshot(withKey, page, 'passkeys-offer');

    // An authenticator that cannot verify the person fails the creation: the page says so, and the
    // keyboard is back on "Create a passkey" to try again.
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
    await page.click('#passkey-create');
    await page.locator('#passkey-error').waitFor({ state: 'visible' });
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('passkey-create');
    expect(await credentials()).toEqual([]);
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: true });

    const arrived = listener.nextRequest();
    await page.click('#passkey-create');
    const callback = await arrived;
    await page.waitForURL(onCallback);
    expect(callback.searchParams.get('state')).toBe(state);
    await exchange(callback, verifier);
    const stored = await credentials();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    // The user is told by e-mail that a passkey was added, naming the browser it was made in.
    const notice = await smtp.next(email);
    expect(notice.subject).toMatch(/^A passkey was added to your .+ sign-in$/);
    expect(notice.text).toMatch(/sign-in: Chrome on \w+/);
  });

  it('the e-mailed link opened in the browser that asked: "Continue here" offers the passkey first', async () => {
    const here = await launchBrowser({ artifacts: 'passkeys' });
    try {
      const authenticator = await addVirtualAuthenticator(here);
      const { verifier, challenge } = pkcePair();
      const state = `link-here-${Date.now()}`;
      const address = uniqueEmail('passkey-link');
      await here.page.goto(authorizeUrl(desktop, challenge, state));
      await here.page.fill('input[name=email]', address);
      await submit(here.page, 'button[type=submit]');
      await here.page.goto(linkIn(await smtp.next(address)));
      // The page found the platform authenticator: "Continue here" goes to the hosted page, which offers the passkey.
      await here.page.waitForFunction("document.getElementById('continue-here').action.endsWith('/v1/authorize/link')");
      await expectAccessible(here.page, 'link page, in the browser that asked');
      await here.screenshot(here.page, 'link-page-here');
      // The keyboard reaches "Continue here" first, the likely way on in the browser that asked.
      await here.page.keyboard.press('Tab');
      expect(await here.page.evaluate<string | undefined>("document.activeElement?.closest('form')?.id")).toBe('continue-here');
      await submit(here.page, '#continue-here button');
      expect(await textOf(here.page, 'h1')).toBe('Use a passkey next time');
      await expectAccessible(here.page, 'offer after the link');
      await here.screenshot(here.page, 'offer-after-link');

      const arrived = listener.nextRequest();
      await here.page.click('#passkey-create');
      const callback = await arrived;
      await here.page.waitForURL(onCallback);
      expect(callback.searchParams.get('state')).toBe(state);
      await exchange(callback, verifier);
      const made = await authenticator.cdp.send('WebAuthn.getCredentials', { authenticatorId: authenticator.authenticatorId });
      expect(made.credentials).toHaveLength(1);
      expect((await smtp.next(address)).subject).toMatch(/^A passkey was added/);
    } finally {
      await here.close();
    }
  });

  it('signs in with the passkey alone: the button, then the e-mail field’s autofill', async () => {
    const { page } = withKey;
    const button = pkcePair();
    const buttonState = `button-${Date.now()}`;
    // The virtual authenticator answers the autofill request at once (below): here its challenge
    // request is held, so only the button signs in.
    let autofillHeld: () => void;
    const held = new Promise<void>((resolve) => (autofillHeld = resolve));
    let first = true;
    await page.route('**/api/v1/authorize/passkey/options', async (route) => {
      if (!first) return route.continue();
      first = false;
      autofillHeld();
    });
    await page.goto(authorizeUrl(desktop, button.challenge, buttonState));
    await held;
    let arrived = listener.nextRequest();
    await page.click('#passkey-sign-in');
    let callback = await arrived;
    await page.waitForURL(onCallback);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    expect(callback.searchParams.get('state')).toBe(buttonState);
    const tokens = await exchange(callback, button.verifier);
    const userinfo = await request(gateway.stack.auth.url)
      .get('/api/v1/userinfo')
      .set('Authorization', `Bearer ${tokens.body.access_token}`);
    expect(userinfo.body.email).toBe(email);

    // Autofill (conditional mediation): the page starts the request on load, without a click;
    // Chromium's virtual authenticator answers it at once with its discoverable credential, where
    // a person would pick the passkey in the e-mail field's autofill.
    const autofill = pkcePair();
    const autofillState = `autofill-${Date.now()}`;
    arrived = listener.nextRequest();
    await page.goto(authorizeUrl(desktop, autofill.challenge, autofillState));
    callback = await arrived;
    await page.waitForURL(onCallback);
    expect(callback.searchParams.get('state')).toBe(autofillState);
    await exchange(callback, autofill.verifier);
  });

  it('the passkey signs in nobody in another organization, and the keyboard goes to the e-mail field', async () => {
    const { page } = withKey;
    const { challenge } = pkcePair();
    await page.goto(authorizeUrl(otherOrganization, challenge, `other-${Date.now()}`));
    await page.click('#passkey-sign-in');
    await page.locator('#passkey-error').waitFor({ state: 'visible' });
    expect(page.url()).toContain('/api/v1/authorize');
    // The way on is the e-mail: the keyboard is taken there (the message is announced as an alert).
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('email');
  });

  it('removed, the passkey signs in no more: the page says so and the e-mail stays', async () => {
    const { page } = withKey;
    const [user] = await query<{ id: string; organization_id: string }>('SELECT id, organization_id FROM "user" WHERE email = $1', [email]);
    const passkeys = gateway.stack.auth.app.get(UserPasskeys);
    const [passkey] = await passkeys.list(user.organization_id, user.id);
    const owner = { tenantId: desktop.tenantId, organizationId: user.organization_id, userId: user.id };
    expect(
      await passkeys.remove(owner, passkey.id, { type: 'platform', id: null, name: null, ip: null, requestId: null }, new Date()),
    ).toMatchObject({
      id: passkey.id,
    });
    const [removed] = await query("SELECT actor_type, action FROM audit_event WHERE target_id = $1 AND action = 'passkey.remove'", [
      passkey.id,
    ]);
    expect(removed).toEqual({ actor_type: 'platform', action: 'passkey.remove' });

    const { challenge } = pkcePair();
    await page.goto(authorizeUrl(desktop, challenge, `removed-${Date.now()}`));
    await page.click('#passkey-sign-in');
    await page.locator('#passkey-error').waitFor({ state: 'visible' });
    expect(await textOf(page, '#passkey-error')).toBe('This passkey cannot sign you in here. Use your e-mail address instead.');
    await docScreenshot(withKey, page, 'passkeys-refused');
  });

  it('"Not now" goes on at once, and the offer does not come again on that device', async () => {
    const skipper = await launchBrowser({ artifacts: 'passkeys' });
    try {
      await addVirtualAuthenticator(skipper);
      const address = uniqueEmail('passkey-skip');
      for (const round of [1, 2]) {
        const { verifier, challenge } = pkcePair();
        const state = `skip-${round}-${Date.now()}`;
        const code = await askForEmail(skipper.page, desktop, address, challenge, state);
        await skipper.page.locator('input[name=passkey_offer]').waitFor({ state: 'attached' });
        await skipper.page.fill('input[name=code]', code);
        const arrived = listener.nextRequest();
        if (round === 1) {
          await submit(skipper.page, 'button[type=submit]');
          expect(await textOf(skipper.page, 'h1')).toBe('Use a passkey next time');
          await skipper.page.click('#passkey-skip');
        } else {
          // Remembered: the code goes straight on to the application.
          await skipper.page.click('button[type=submit]');
        }
        const callback = await arrived;
        expect(callback.searchParams.get('state')).toBe(state);
        await exchange(callback, verifier);
      }
      const cookies = await skipper.context.cookies();
      expect(cookies.find((cookie) => cookie.name === 'sesame_passkey_skip')?.expires).toBeGreaterThan(Date.now() / 1000 + 29 * 24 * 3600);
    } finally {
      await skipper.close();
    }
  });

  it('a second browser without the key signs in by e-mail, with no offer where it cannot make a passkey', async () => {
    const other = await launchBrowser({ artifacts: 'passkeys' });
    try {
      const { verifier, challenge } = pkcePair();
      const state = `fallback-${Date.now()}`;
      const code = await askForEmail(other.page, desktop, email, challenge, state);
      expect(await other.page.locator('input[name=passkey_offer]').count()).toBe(0);
      await other.page.fill('input[name=code]', code);
      const arrived = listener.nextRequest();
      await submit(other.page, 'button[type=submit]');
      const callback = await arrived;
      expect(callback.searchParams.get('state')).toBe(state);
      await exchange(callback, verifier);
    } finally {
      await other.close();
    }
  });
});

/** Whether the browser is on the loopback callback (its navigation finished). */
const onCallback = (url: URL) => url.pathname === '/callback';

/** A virtual authenticator in the browser (DevTools protocol, WebAuthn domain): a platform authenticator with user verification. */
async function addVirtualAuthenticator(browser: TestBrowser): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await browser.context.newCDPSession(browser.page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** Presses a button that submits a form and waits for the page it leads to. */
async function submit(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click(selector)]);
}

async function textOf(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).textContent()) ?? '').trim();
}

/**
 * A screenshot in test-artifacts/passkeys/ and, with UPDATE_DOC_IMAGES=1 (`npm run docs:passkey-images`),
 * in docs/images/ for docs/passkeys.md (so that an ordinary run leaves the documentation alone).
 */
async function docScreenshot(browser: TestBrowser, page: Page, name: string): Promise<void> {
  const path = await browser.screenshot(page, name);
  if (process.env.UPDATE_DOC_IMAGES === '1') await copyFile(path, join(DOC_IMAGES, `${name}.png`));
}
