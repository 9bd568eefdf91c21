import { randomBytes } from 'node:crypto';
import { pressContinue } from '../client/support/hosted-page';
import { basicAuth, pkcePair, uniqueEmail } from '../support/login';
import { linkIn } from '../support/smtp-sink';
import { mailsTo, nextMailTo } from './support/inbox';
import { KubePlay, PLAYED_APPS } from './support/kube-play';
import { containerOf, healthy, podman, podmanSucceeds, stack } from './support/podman';
import { until } from './support/until';

/**
 * The whole stack of docker/compose.yml in containers (podman, with the images of docker/compose.local.yml
 * made from Debian's packages): built, started in the order of its depends_on, and used only through
 * its published ports, the gateway on :3000 and the mail catcher on :8025, as the README describes.
 * `npm run test:containers`; needs root, podman, runc, podman-compose and debootstrap.
 */
const GATEWAY = 'http://localhost:3000/api';
const REDIRECT_URI = 'http://localhost:4000/callback';
const PLATFORM_API_KEY = randomBytes(32).toString('hex');
const SECRETS_KEY = randomBytes(32).toString('hex');
const APPS = ['management-api', 'auth-api', 'mail-worker', 'console'];

async function call(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const { json, ...rest } = init;
  return fetch(`${GATEWAY}${path}`, {
    redirect: 'manual',
    ...rest,
    headers: { ...(json === undefined ? {} : { 'Content-Type': 'application/json' }), ...rest.headers },
    body: json === undefined ? rest.body : JSON.stringify(json),
  });
}

async function expectStatus(response: Response, status: number): Promise<Response> {
  if (response.status !== status) throw new Error(`${response.url} answered ${response.status}, not ${status}: ${await response.text()}`);
  return response;
}

/** The JSON body of an answer that must have the given status. */
async function answer<T>(response: Promise<Response>, status: number): Promise<T> {
  return (await expectStatus(await response, status)).json() as Promise<T>;
}

interface App {
  clientId: string;
  clientSecret: string;
}

/** A tenant (platform key), its organization and a web application, through the management API. */
async function createApplication(): Promise<App> {
  const platform = { Authorization: `Bearer ${PLATFORM_API_KEY}` };
  const tenant = await answer<{ apiKey: { key: string } }>(
    call('/v2/tenant', { method: 'POST', headers: platform, json: { name: 'Acme', plan: 'pro' } }),
    201,
  );
  const key = { Authorization: `Bearer ${tenant.apiKey.key}` };
  const organization = await answer<{ id: string }>(
    call('/v2/organization', { method: 'POST', headers: key, json: { name: 'Acme', whitelistDomains: ['http://localhost:4000'] } }),
    201,
  );
  const application = await answer<App>(
    call(`/v2/organization/${organization.id}/application`, { method: 'POST', headers: key, json: { name: 'Web', type: 'web' } }),
    201,
  );
  return { clientId: application.clientId, clientSecret: application.clientSecret };
}

const basic = (app: App) => ({ Authorization: basicAuth(app) });

function authenticateDirect(app: App, email: string, challenge: string): Promise<Response> {
  return call('/v1/authenticate_direct', {
    method: 'POST',
    headers: basic(app),
    json: { email, redirect_uri: REDIRECT_URI, state: 'xyz', code_challenge: challenge, code_challenge_method: 'S256' },
  });
}

/** The mailed link's page, then Continue: the callback URL the browser is sent to. */
async function continueFromLink(link: URL): Promise<URL> {
  await expectStatus(await fetch(link, { redirect: 'manual' }), 200);
  return new URL(await pressContinue(link.href));
}

/** verify (code and PKCE verifier), then userinfo with the access token: the e-mail it answers. */
async function verifyAndReadUser(app: App, callback: URL, verifier: string): Promise<string> {
  const verified = call('/v1/verify', {
    method: 'POST',
    headers: { ...basic(app), 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ code: callback.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: verifier }),
  });
  const { access_token: accessToken } = await answer<{ access_token: string }>(verified, 200);
  const user = await answer<{ email: string }>(call('/v1/userinfo', { headers: { Authorization: `Bearer ${accessToken}` } }), 200);
  return user.email;
}

/** Waits until GET `url` answers 200 (a pod is ready once the gateway reaches it). */
const answering = (url: string) => until(`${url} answering 200`, async () => (await fetch(url).catch(() => null))?.status === 200, 180_000);

/** One login, from direct authentication to userinfo. */
async function signIn(app: App, label: string): Promise<void> {
  const email = uniqueEmail(label);
  const { verifier, challenge } = pkcePair();
  await expectStatus(await authenticateDirect(app, email, challenge), 200);
  const callback = await continueFromLink(new URL(linkIn(await nextMailTo(email))));
  expect(await verifyAndReadUser(app, callback, verifier)).toBe(email);
}

describe('the compose stack in containers (podman)', () => {
  let app: App;

  beforeAll(async () => {
    stack('images');
    stack('up', { env: { SECRETS_KEY, PLATFORM_API_KEY } });
    app = await createApplication();
  }, 30 * 60_000);

  afterAll(() => stack('down'), 120_000);

  it("runs the README's login flow through the gateway: direct authentication, the mail, the link page, Continue, verify, userinfo", async () => {
    const email = uniqueEmail('ada');
    const { verifier, challenge } = pkcePair();
    const started = await answer<object>(authenticateDirect(app, email, challenge), 200);
    expect(started).toEqual(expect.objectContaining({ loginAttemptId: expect.any(String), sentence: expect.any(String) }));

    const mail = await nextMailTo(email);
    const link = new URL(linkIn(mail));
    expect(link.origin + link.pathname).toBe(`${GATEWAY}/v1/login_link`);
    const callback = await continueFromLink(link);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe('xyz');

    expect(await verifyAndReadUser(app, callback, verifier)).toBe(email);
  });

  it('serves the console through the gateway, and its sign-in reaches Sesame through the gateway from inside the stack', async () => {
    const page = await expectStatus(await fetch('http://localhost:3000/console', { redirect: 'manual' }), 200);
    expect(await page.text()).toContain('<title>Sesame console</title>');
    const session = await expectStatus(await fetch('http://localhost:3000/console/api/session'), 200);
    const { csrfToken } = (await session.json()) as { csrfToken: string };
    const cookie = session.headers
      .getSetCookie()
      .map((value) => value.split(';')[0])
      .join('; ');
    const email = uniqueEmail('member');
    const signIn = await fetch('http://localhost:3000/console/api/sign_in', {
      method: 'POST',
      headers: { Cookie: cookie, 'X-CSRF-Token': csrfToken, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    await expectStatus(signIn, 200);
    expect(linkIn(await nextMailTo(email))).toMatch(/^http:\/\/localhost:3000\/api\/v1\/login_link\?token=/);
  });

  it.each(APPS)('runs %s as a non-root user on a read-only root filesystem', (service) => {
    const container = containerOf(service);
    expect(podman('exec', container, 'id', '-u')).not.toBe('0');
    expect(podman('inspect', '--format', '{{.HostConfig.ReadonlyRootfs}}', container)).toBe('true');
    expect(podmanSucceeds('exec', container, 'touch', '/app/written')).toBe(false);
  });

  it('loses no mail and sends none twice when mail-worker and redis restart in the middle of logins', async () => {
    podman('stop', '-t', '30', containerOf('mail-worker'));
    const logins = Array.from({ length: 5 }, () => ({ email: uniqueEmail('restart'), ...pkcePair() }));
    for (const login of logins) await expectStatus(await authenticateDirect(app, login.email, login.challenge), 200);

    // Redis stops with the queued mail jobs in it (append-only file) and comes back with them.
    podman('restart', '-t', '30', containerOf('redis'));
    await healthy('redis');
    podman('start', containerOf('mail-worker'));
    await healthy('mail-worker');
    // auth-api answers 503 (Retry-After: 1) until its own Redis client is back, up to its 2 s backoff
    // after Redis is: opening the link waits for what a readiness probe would.
    await healthy('auth-api');

    for (const login of logins) await nextMailTo(login.email);
    const [first] = logins;
    const callback = await continueFromLink(new URL(linkIn(await nextMailTo(first.email))));
    expect(await verifyAndReadUser(app, callback, first.verifier)).toBe(first.email);
    // Every mail was sent while the test waited for the last one; none came twice.
    for (const login of logins) expect([login.email, (await mailsTo(login.email)).length]).toEqual([login.email, 1]);
  });

  describe('deploy/kubernetes, its Deployments started by podman kube play', () => {
    let kube: KubePlay | undefined;

    beforeAll(async () => {
      for (const service of [...PLAYED_APPS, 'gateway']) podman('stop', '-t', '30', containerOf(service));
      kube = new KubePlay({
        DATABASE_URL: 'postgres://sesame:sesame@postgres:5432/sesame',
        REDIS_URL: 'redis://redis:6379',
        SMTP_URL: 'smtp://mailpit:1025',
        SECRETS_KEY,
        PLATFORM_API_KEY,
      });
      kube.start();
      await answering(`${GATEWAY}/v1/.well-known/openid-configuration`);
      await answering('http://localhost:3000/console');
    }, 600_000);

    afterAll(() => kube?.stop(), 120_000);

    it('runs each app as a pod of its Deployment, non-root on a read-only root filesystem', () => {
      for (const service of PLAYED_APPS) {
        const container = `${service}-pod-0-${service}`;
        expect([service, podman('exec', container, 'id', '-u')]).toEqual([service, '1000']);
        expect([service, podmanSucceeds('exec', container, 'touch', '/app/written')]).toEqual([service, false]);
      }
    });

    it('signs a user in through them as through the compose stack, with a new tenant and the first one', async () => {
      await signIn(await createApplication(), 'kube');
      await signIn(app, 'kube-again');
    });
  });
});
