import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { createSesameClient, ProviderError, RateLimitedError, SesameClient } from '@sesame/client';
import { startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { uniqueEmail } from '../support/login';
import { linkIn, SmtpSink } from '../support/smtp-sink';
import { pressContinue } from './support/hosted-page';

/**
 * @sesame/client on a plain node:http server (no Express) against the real service: a whole login
 * driven over HTTP with a small cookie jar, the allowedDate 429, a redirect outside the whitelist,
 * and the retries with backoff when the endpoint's own rate limit answers 429.
 */
describe('Node client on node:http against Sesame', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let server: Server;
  let origin: string;
  /** One application (in its own tenant, so rate limits never mix) per test, served under /<name>/. */
  const apps = new Map<string, { sesame: SesameClient; fixture: ApplicationFixture; sleeps: number[] }>();

  beforeAll(async () => {
    await smtp.start();
    // The client-authenticated endpoints allow 3 requests per tenant in a rolling 2-second window here.
    stack = await startStack(smtp.url, { env: { ENDPOINT_LIMITS: '{"pro":3}', RATE_LIMIT_WINDOWS: '{"minute":2}' } });
    server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await stack?.close();
    await smtp.stop();
  });

  async function newApp(name: string) {
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: [origin] });
    const fixture = await createApplication(stack.management.url, organization, { type: 'web' });
    const sleeps: number[] = [];
    const sesame = createSesameClient({
      baseUrl: stack.auth.config.http.publicBaseUrl,
      clientId: fixture.clientId,
      clientSecret: fixture.clientSecret!,
      callbackPath: `/${name}/callback`,
      retry: { jitter: false, baseDelayMs: 200 },
      // The library's own backoff waits for real; the test only records how long.
      sleep: async (ms) => {
        sleeps.push(ms);
        await new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    const entry = { sesame, fixture, sleeps };
    apps.set(name, entry);
    return entry;
  }

  /** The apps: POST /<name>/signin?email=…, GET /<name>/callback, GET /<name>/me, POST /<name>/signout. */
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    const [, name, action] = url.pathname.split('/');
    const sesame = apps.get(name)?.sesame;
    const json = (status: number, body: unknown) => {
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    if (!sesame) return json(404, {});
    try {
      if (action === 'signin') return json(200, await sesame.authenticateDirect(req, res, { email: url.searchParams.get('email')! }));
      if (action === 'callback') return void (await sesame.callback(req, res));
      if (action === 'me') return json(200, { user: await sesame.getUser(req) });
      if (action === 'signout') return json(200, await sesame.logout(req, res));
      json(404, {});
    } catch (error) {
      json(error instanceof RateLimitedError ? 429 : 400, { name: (error as Error).name, ...(error as object) });
    }
  }

  it('signs in, reads the user and signs out', async () => {
    const { fixture } = await newApp('flow');
    const jar = new CookieJar();
    const email = uniqueEmail('node-http');
    const started = await jar.fetch(`${origin}/flow/signin?email=${encodeURIComponent(email)}&return_to=%2Fflow%2Fme`, { method: 'POST' });
    expect(started.status).toBe(200);
    expect(await started.json()).toMatchObject({
      redirectUri: `${origin}/flow/callback`,
      returnTo: `${origin}/flow/me`,
      sentence: expect.any(String),
    });

    const callback = await pressContinue(linkIn(await smtp.next(email)));
    expect(callback.startsWith(`${origin}/flow/callback?code=`)).toBe(true);
    const back = await jar.fetch(callback);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`${origin}/flow/me`);
    expect(jar.has('sesame_session')).toBe(true);
    expect(jar.has('sesame_login')).toBe(false);

    expect((await json<{ user: unknown }>(jar.fetch(`${origin}/flow/me`))).user).toMatchObject({
      email,
      organizationId: fixture.organizationId,
    });
    expect(await json(jar.fetch(`${origin}/flow/signout`, { method: 'POST' }))).toEqual({ revoked: true });
    expect((await json<{ user: unknown }>(jar.fetch(`${origin}/flow/me`))).user).toBeNull();
  });

  it('reports Sesame’s allowedDate refusal as a RateLimitedError with allowedDate, without retrying', async () => {
    const { sleeps } = await newApp('early');
    const email = uniqueEmail('too-early');
    const first = await new CookieJar().fetch(`${origin}/early/signin?email=${encodeURIComponent(email)}`, { method: 'POST' });
    const { allowedDate } = (await first.json()) as { allowedDate: string };
    const second = await new CookieJar().fetch(`${origin}/early/signin?email=${encodeURIComponent(email)}`, { method: 'POST' });
    expect(second.status).toBe(429);
    const body = (await second.json()) as { retryAfter: number };
    expect(body).toMatchObject({ name: 'RateLimitedError', code: 'rate_limited', allowedDate });
    expect(body.retryAfter).toBeGreaterThan(0);
    expect(sleeps).toEqual([]);
  });

  it('reports a return address outside the whitelist as Sesame’s invalid_request', async () => {
    const { sesame } = await newApp('elsewhere');
    const res = new ServerResponse(new IncomingMessage(null as never));
    const req = { url: '/signin', headers: { host: 'localhost:1' }, socket: {} };
    const failure = sesame.authenticateDirect(req, res, { email: uniqueEmail('elsewhere') });
    await expect(failure).rejects.toBeInstanceOf(ProviderError);
    await expect(failure).rejects.toMatchObject({ error: 'invalid_request', status: 400 });
  });

  it('retries when the endpoint’s rate limit answers 429, waiting at least Retry-After, and gets through', async () => {
    const { sleeps } = await newApp('burst');
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        new CookieJar().fetch(`${origin}/burst/signin?email=${encodeURIComponent(uniqueEmail(`burst-${n}`))}`, { method: 'POST' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    // Two of the five were refused at first and retried after Retry-After (the window is 2 s).
    expect(sleeps.length).toBeGreaterThanOrEqual(2);
    for (const ms of sleeps) expect(ms).toBeGreaterThanOrEqual(1000);
  });
});

/** The JSON body of an answer. */
async function json<T = unknown>(answer: Promise<Response>): Promise<T> {
  return (await (await answer).json()) as T;
}

/** Keeps the cookies an origin sets, as a browser would (no expiry or path handling beyond Max-Age=0). */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  has(name: string): boolean {
    return this.cookies.has(name);
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(cookie ? { cookie } : {}) } });
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      if (attributes.some((attribute) => attribute.trim().toLowerCase() === 'max-age=0')) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}
