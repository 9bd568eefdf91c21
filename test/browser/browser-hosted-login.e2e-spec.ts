import { createRemoteJWKSet, jwtVerify } from 'jose';
import { ConsoleMessage } from 'playwright-core';
import request from 'supertest';
import { launchBrowser, TestBrowser } from '../support/browser';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { GatewayStack, startGatewayStack } from '../support/gateway';
import { pkcePair, uniqueEmail } from '../support/login';
import { LoopbackListener } from '../support/loopback';
import { linkIn, SmtpSink } from '../support/smtp-sink';

/**
 * The hosted login page in a real browser (Debian Chromium driven by playwright-core), for a
 * desktop app that receives the code on a loopback listener on a random port (RFC 8252 §7.3).
 * Every page is saved as a screenshot under test-artifacts/browser-hosted-login/.
 */
describe('hosted login in Chromium (desktop app, loopback redirect)', () => {
  const smtp = new SmtpSink();
  const listener = new LoopbackListener('/callback');
  let gateway: GatewayStack;
  let desktop: ApplicationFixture;
  let android: ApplicationFixture;
  let browser: TestBrowser;
  const consoleProblems: string[] = [];

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
    android = await createApplication(management, organization, {
      type: 'android',
      name: 'Acme Notes for Android',
      callbackUrls: ['com.example.notes:/oauth/callback'],
    });
    browser = await launchBrowser({ artifacts: 'browser-hosted-login' });
    // CSP violations (a blocked stylesheet, a blocked form target) show up on the console. Pages
    // answered with an error status (the form with a typo: 400; favicons: 404) are expected.
    browser.context.on('console', (message: ConsoleMessage) => {
      const text = message.text();
      if ((message.type() === 'error' || message.type() === 'warning') && !text.startsWith('Failed to load resource'))
        consoleProblems.push(text);
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await listener.stop();
    await smtp.stop();
  });

  it('signs in through the form, the e-mailed link and Continue, lands on the loopback listener, and the code exchanges', async () => {
    const { page } = browser;
    const { verifier, challenge } = pkcePair();
    const redirectUri = listener.redirectUri; // http://127.0.0.1:<random port>/callback
    const state = `st-${Date.now()}`;
    const authorize = new URL(`${gateway.issuer}/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: desktop.clientId,
      redirect_uri: redirectUri,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();

    // 1. The sign-in form.
    await page.goto(authorize.href);
    expect(await textOf(page, 'h1')).toBe('Sign in to Acme Notes');
    await expectStyled(page);
    await browser.screenshot(page, '01-sign-in');

    // 2. A typo first: the form comes back with the error, the address kept.
    await page.fill('input[name=email]', 'not-an-address');
    await submit(page);
    expect(await page.locator('#email-error').isVisible()).toBe(true);
    await browser.screenshot(page, '02-invalid-email');

    // 3. The real address: "check your inbox" with the sentence.
    const email = uniqueEmail('browser');
    await page.fill('input[name=email]', email);
    await submit(page);
    expect(await textOf(page, 'h1')).toBe('Check your inbox');
    const sentence = await textOf(page, '#sentence');
    expect(sentence.split(' ').length).toBeGreaterThanOrEqual(3);
    await browser.screenshot(page, '03-check-inbox');

    // 4. The link from the SMTP sink: same sentence, nothing used yet.
    const link = linkIn(await smtp.next(email));
    expect(link.startsWith(`${gateway.publicBaseUrl}/v1/login_link?token=`)).toBe(true);
    await page.goto(link);
    expect(await textOf(page, '#sentence')).toBe(sentence);
    await expectStyled(page);
    await browser.screenshot(page, '04-login-link');

    // 5. Continue: the browser is sent to the app's loopback listener with code and state.
    const arrived = listener.nextRequest();
    await submit(page);
    const callback = await arrived;
    expect(callback.pathname).toBe('/callback');
    expect(callback.searchParams.get('state')).toBe(state);
    const code = callback.searchParams.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await page.waitForURL((url) => url.port === String(listener.port));
    await browser.screenshot(page, '05-back-in-the-app');

    // 6. The app exchanges the code with PKCE alone (no secret) and reads the user.
    const tokens = await request(gateway.publicBaseUrl.replace(/\/api$/, ''))
      .post('/api/v1/verify')
      .type('form')
      .send({ client_id: desktop.clientId, code, redirect_uri: redirectUri, code_verifier: verifier })
      .expect(200);
    const jwks = createRemoteJWKSet(new URL(`${gateway.issuer}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(tokens.body.id_token, jwks, { issuer: gateway.issuer, audience: desktop.clientId });
    expect(payload.email).toBe(email);
    const user = await request(gateway.stack.auth.url)
      .get('/api/v1/userinfo')
      .set('Authorization', `Bearer ${tokens.body.access_token}`)
      .expect(200);
    expect(user.body).toMatchObject({ sub: payload.sub, email, email_verified: true, organization_id: desktop.organizationId });

    // 7. The link again (as from the e-mail): already used.
    await page.goto(link);
    expect(await textOf(page, 'h1')).toBe('This link was already used');
    await browser.screenshot(page, '06-link-used');

    expect(consoleProblems).toEqual([]);
  });

  it('android app with a custom-scheme redirect: Continue hands com.example.notes:/oauth/callback?code&state to the app', async () => {
    const { page } = browser;
    const { challenge } = pkcePair();
    const authorize = new URL(`${gateway.issuer}/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: android.clientId,
      redirect_uri: 'com.example.notes:/oauth/callback',
      state: 'android-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    await page.goto(authorize.href);
    const email = uniqueEmail('android');
    await page.fill('input[name=email]', email);
    await submit(page);
    await page.goto(linkIn(await smtp.next(email)));
    // Either the browser hands the URL to the app (a request for the custom scheme), or the CSP
    // blocks it (a console error): wait for whichever comes first, no timeouts involved.
    const handedOver = page
      .waitForEvent('request', { predicate: (sent) => sent.url().startsWith('com.example.notes:') })
      .then((sent) => new URL(sent.url()));
    const blocked = page
      .waitForEvent('console', { predicate: (message) => message.text().includes('Content Security Policy') })
      .then((message) => new Error(`Blocked by the page's CSP: ${message.text()}`));
    await page.click('button[type=submit]');
    const outcome = await Promise.race([handedOver, blocked]);
    handedOver.catch(() => undefined);
    blocked.catch(() => undefined);
    if (outcome instanceof Error) throw outcome;
    expect(`${outcome.protocol}${outcome.pathname}`).toBe('com.example.notes:/oauth/callback');
    expect(outcome.searchParams.get('state')).toBe('android-state');
    expect(outcome.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('shows an error page, and never redirects, for a redirect_uri the app has not registered', async () => {
    const { page } = browser;
    const { challenge } = pkcePair();
    const authorize = new URL(`${gateway.issuer}/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: desktop.clientId,
      redirect_uri: 'http://127.0.0.1:1/elsewhere',
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    const response = await page.goto(authorize.href);
    expect(response!.status()).toBe(400);
    expect(new URL(page.url()).origin).toBe(new URL(gateway.issuer).origin);
    expect(await textOf(page, 'h1')).toBe('This sign-in request cannot continue');
    await expectStyled(page);
    await browser.screenshot(page, '07-error-page');
  });

  it('speaks the language ui_locales asks for, fits a phone screen, and follows dark mode', async () => {
    const { page } = browser;
    const { challenge } = pkcePair();
    await page.setViewportSize({ width: 390, height: 760 });
    const authorize = new URL(`${gateway.issuer}/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: desktop.clientId,
      redirect_uri: listener.redirectUri,
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ui_locales: 'de',
    }).toString();
    await page.goto(authorize.href);
    expect(await textOf(page, 'h1')).toBe('Bei Acme Notes anmelden');
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    // Nothing wider than the screen.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await browser.screenshot(page, '08-sign-in-de-phone');
    await page.setViewportSize({ width: 1024, height: 720 });
    // The pages follow the system's dark mode.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    expect(await page.evaluate<string>('getComputedStyle(document.body).backgroundColor')).toBe('rgb(20, 22, 27)');
    await browser.screenshot(page, '09-sign-in-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });
});

/** The page's stylesheet was applied (a CSP hash mismatch would leave the page unstyled). */
async function expectStyled(page: TestBrowser['page']): Promise<void> {
  // (Expressions as strings: they run in the page, and this project compiles without the DOM types.)
  const radius = await page.evaluate<string>("getComputedStyle(document.querySelector('main')).borderRadius");
  expect(radius).not.toBe('0px');
}

/** Presses the form's button and waits for the page it leads to. */
async function submit(page: TestBrowser['page']): Promise<void> {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[type=submit]')]);
}

async function textOf(page: TestBrowser['page'], selector: string): Promise<string> {
  return ((await page.locator(selector).textContent()) ?? '').trim();
}
