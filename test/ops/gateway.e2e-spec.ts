import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { freePort } from '../support/apps';
import { acquireConsoleLock, CONSOLE_SETUP_TIMEOUT_MS, setUpConsole } from '../support/console';
import { SmtpSink } from '../support/smtp-sink';
import { TEST_PLATFORM_API_KEY } from '../support/test-env';
import { AppName, AppProcess, startAppProcess, startAppProcesses } from './support/app-process';
import { RunningNginx, startNginx } from './support/nginx';
import { LINE_WAIT_MS } from './support/lines';

/**
 * docker/nginx.conf in front of the real apps: rendered with loopback upstreams, checked with
 * `nginx -t`, run by Debian's nginx; the apps (and the console, after console:setup) run with their
 * Dockerfile commands and TRUST_PROXY=loopback.
 */
describe('the nginx gateway (docker/nginx.conf) in front of the apps', () => {
  let apps: Record<AppName, AppProcess>;
  let consoleApp: AppProcess;
  let nginx: RunningNginx & { configTest: string };
  let gateway: string;
  let releaseConsole: () => Promise<void>;
  const smtp = new SmtpSink();
  const dir = mkdtempSync(join(tmpdir(), 'sesame-gateway-console-'));

  beforeAll(async () => {
    await smtp.start();
    const port = await freePort();
    gateway = `http://127.0.0.1:${port}`;
    const env = {
      PUBLIC_BASE_URL: `${gateway}/api`,
      CONSOLE_PUBLIC_URL: `${gateway}/console`,
      TRUST_PROXY: 'loopback',
      GLOBAL_RATE_LIMIT: '1000',
      LOG_LEVEL: 'info',
      SMTP_URL: smtp.url,
    };
    apps = await startAppProcesses(env);
    releaseConsole = await acquireConsoleLock();
    const credentialsFile = join(dir, 'console.json');
    await setUpConsole(`${gateway}/console`, credentialsFile);
    consoleApp = await startAppProcess('console', { ...env, CONSOLE_CREDENTIALS_FILE: credentialsFile });
    nginx = await startNginx(
      {
        auth: `127.0.0.1:${apps['auth-api'].port}`,
        management: `127.0.0.1:${apps['management-api'].port}`,
        console: `127.0.0.1:${consoleApp.port}`,
      },
      port,
    );
  }, CONSOLE_SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await nginx?.stop();
    await Promise.all([...Object.values(apps ?? {}), consoleApp].filter(Boolean).map((app) => app.stop()));
    await releaseConsole?.();
    rmSync(dir, { recursive: true, force: true });
    await smtp.stop();
  }, 30_000);

  it('the configuration passes `nginx -t`', () => {
    expect(nginx.configTest).toContain('syntax is ok');
    expect(nginx.configTest).toContain('test is successful');
  });

  it('routes /api/v1 to auth-api: the metadata names the gateway as issuer', async () => {
    const response = await request(gateway).get('/api/v1/.well-known/oauth-authorization-server').expect(200);
    expect(response.body.issuer).toBe(`${gateway}/api/v1`);
    expect(response.body.token_endpoint).toBe(`${gateway}/api/v1/verify`);
  });

  it("serves RFC 8414's /.well-known/oauth-authorization-server/api/v1 from auth-api", async () => {
    const direct = await request(gateway).get('/api/v1/.well-known/oauth-authorization-server').expect(200);
    const wellKnown = await request(gateway).get('/.well-known/oauth-authorization-server/api/v1').expect(200);
    expect(wellKnown.headers['content-type']).toMatch(/^application\/json/);
    expect(wellKnown.body).toEqual(direct.body);
  });

  it('routes /api/v2 to management-api', async () => {
    const refused = await request(gateway).get('/api/v2/organization').expect(401);
    expect(refused.body.code).toBe('missing_api_key');
    const created = await request(gateway)
      .post('/api/v2/tenant')
      .set('Authorization', `Bearer ${TEST_PLATFORM_API_KEY}`)
      .send({ name: 'Through the gateway', plan: 'free' })
      .expect(201);
    expect(created.body.tenant.name).toBe('Through the gateway');
  });

  it('routes /console to the console: its page, its API and the sign-in it starts', async () => {
    const page = await request(gateway).get('/console').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('<title>Sesame console</title>');
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(page.text)![1];
    await request(gateway).get(script).expect(200).expect('Content-Type', 'text/javascript; charset=utf-8');
    const session = await request(gateway).get('/console/api/session').expect(200);
    expect(session.body).toEqual({ signedIn: false, email: null, memberships: [], csrfToken: expect.any(String) });
    const cookie = ([] as string[])
      .concat(session.headers['set-cookie'])
      .map((value) => value.split(';')[0])
      .join('; ');
    const started = await request(gateway)
      .post('/console/api/sign_in')
      .set('Cookie', cookie)
      .set('X-CSRF-Token', session.body.csrfToken)
      .send({ email: 'gateway@example.com' })
      .expect(200);
    expect(started.body.sentence).toEqual(expect.any(String));
    expect((await smtp.next('gateway@example.com')).text).toContain(`${gateway}/api/v1/login_link?token=`);
  });

  it.each([
    '/',
    '/api',
    '/api/health',
    '/api/metrics',
    '/api/v3/organization',
    '/api/v10/x',
    '/.well-known/openid-configuration',
    '/.well-known/oauth-authorization-server',
    '/consoles',
    '/console-x',
  ])('answers 404 for %s (nothing else is exposed)', async (path) => {
    const response = await request(gateway).get(path).expect(404);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(response.text)).toEqual(expect.objectContaining({ status: 404, code: 'not_found' }));
  });

  it("passes the caller's X-Request-Id through, or gives the request nginx's id, and the app logs it", async () => {
    const given = await request(gateway).get('/api/v1/.well-known/jwks.json').set('X-Request-Id', 'gateway-test.1').expect(200);
    expect(given.headers['x-request-id']).toBe('gateway-test.1');
    const generated = await request(gateway).get('/api/v1/.well-known/jwks.json').expect(200);
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    const id = generated.headers['x-request-id'];
    await apps['auth-api'].waitForLog(
      (line) => line.requestId === id && line.msg === 'request completed',
      LINE_WAIT_MS,
      'the request log line',
    );
    const access = await nginx.output.waitFor((line) => line.includes(`"request_id":"${id}"`), LINE_WAIT_MS, 'the access log line');
    expect(JSON.parse(access)).toEqual(expect.objectContaining({ method: 'GET', path: '/api/v1/.well-known/jwks.json', status: 200 }));
  });

  it('the access log leaves out query strings (login links carry their token there)', async () => {
    await request(gateway).get('/api/v1/login_link?token=gateway-secret-token-value').set('X-Request-Id', 'gateway-query-test');
    const access = await nginx.output.waitFor(
      (line) => line.includes('"request_id":"gateway-query-test"'),
      LINE_WAIT_MS,
      'the access log line',
    );
    expect(access).not.toContain('gateway-secret-token-value');
  });

  it('the apps take the client address from X-Forwarded-For set by the gateway (TRUST_PROXY=loopback): one rate-limit budget per address', async () => {
    const remaining = async (address: string) =>
      Number(
        (await request(gateway).get('/api/v1/.well-known/jwks.json').set('X-Forwarded-For', address).expect(200)).headers[
          'ratelimit-remaining'
        ],
      );
    const first = await remaining('203.0.113.7');
    expect(await remaining('203.0.113.7')).toBe(first - 1);
    expect(await remaining('203.0.113.7')).toBe(first - 2);
    expect(await remaining('198.51.100.20')).toBe(first);
  });

  it('does not expose the queue dashboard unless an operator turns it on (QUEUE_DASHBOARD)', async () => {
    for (const path of ['/api/v2/queues', '/api/v2/queues/', '/api/v2/queues/session', '/api/v2/queues/api/queues']) {
      const answer = await request(gateway).get(path).set('Authorization', `Bearer ${TEST_PLATFORM_API_KEY}`);
      expect([path, answer.status]).toEqual([path, 404]);
    }
  });

  it("each image's HEALTHCHECK command passes against its running app", async () => {
    for (const app of [...Object.values(apps), consoleApp]) expect([app.name, await app.healthCheck()]).toEqual([app.name, 0]);
  });
});
