import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { createApplication, createOrganization, createTenant, ApplicationFixture } from '../support/fixtures';
import { basicAuth } from '../support/login';
import { linkIn, SmtpSink } from '../support/smtp-sink';
import { TEST_PLATFORM_API_KEY, TEST_SECRETS_KEY } from '../support/test-env';
import { AppName, AppProcess, LogLine, startAppProcesses } from './support/app-process';
import { moved, Samples, scrape } from './support/metrics';
import { LINE_WAIT_MS } from './support/lines';

const REDIRECT_URI = 'http://localhost:4000/callback';

/**
 * The three apps as separate processes (their Dockerfile commands) with LOG_LEVEL=trace: a whole
 * login, hosted and direct, with the failures an operator watches for. Their JSON logs and
 * /api/metrics are checked afterwards.
 */
describe('logs and metrics of a full login', () => {
  const smtp = new SmtpSink();
  let apps: Record<AppName, AppProcess>;
  let management: string;
  let auth: string;
  let app: ApplicationFixture;
  let basicApp: ApplicationFixture;
  const before = {} as Record<AppName, Samples>;
  /** Every secret the flow handled: none may appear in any log line. */
  const secrets = new Map<string, string>();
  const requestId = `ops-login-${randomBytes(4).toString('hex')}`;

  const remember = (name: string, secret: string | null | undefined) => {
    if (!secret) throw new Error(`no ${name}`);
    secrets.set(name, secret);
    return secret;
  };

  beforeAll(async () => {
    await smtp.start();
    apps = await startAppProcesses({
      SMTP_URL: smtp.url,
      LOG_LEVEL: 'trace',
      MAIL_RETRY_DELAY_MS: '20',
      MAIL_ATTEMPTS: '2',
      // A small per-tenant limit for basic-plan tenants, to see a 429 counted by plan.
      ENDPOINT_LIMITS: JSON.stringify({ free: 100000, basic: 2, pro: 100000, enterprise: 100000 }),
    });
    management = apps['management-api'].url;
    auth = apps['auth-api'].url;
    for (const name of Object.keys(apps) as AppName[]) before[name] = await scrape(apps[name].url);

    const tenant = await createTenant(management, 'pro');
    app = await createApplication(management, await createOrganization(management, tenant));
    remember('tenant API key', tenant.apiKey);
    remember('client secret', app.clientSecret);
    remember('Basic credentials', basicAuth(app).slice('Basic '.length));
    remember('platform key', TEST_PLATFORM_API_KEY);
    remember('SECRETS_KEY', TEST_SECRETS_KEY);
    const basicTenant = await createTenant(management, 'basic');
    basicApp = await createApplication(management, await createOrganization(management, basicTenant));
    remember('basic tenant API key', basicTenant.apiKey);
    remember('basic client secret', basicApp.clientSecret);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(Object.values(apps ?? {}).map((process) => process.stop()));
    await smtp.stop();
  }, 30_000);

  async function useLink(email: string): Promise<{ token: string; callback: URL }> {
    const token = remember(`link token for ${email}`, new URL(linkIn(await smtp.next(email))).searchParams.get('token'));
    await request(auth).get('/api/v1/login_link').query({ token }).expect(200);
    const used = await request(auth).post('/api/v1/login_link').type('form').send({ token }).expect(303);
    return { token, callback: new URL(used.headers.location) };
  }

  async function exchange(code: string, verifier: string): Promise<void> {
    const tokens = await request(auth)
      .post('/api/v1/verify')
      .set('Authorization', basicAuth(app))
      .type('form')
      .send({ code, redirect_uri: REDIRECT_URI, code_verifier: verifier })
      .expect(200);
    const accessToken = remember('access token', tokens.body.access_token);
    remember('id_token', tokens.body.id_token);
    await request(auth).get('/api/v1/userinfo').set('Authorization', `Bearer ${accessToken}`).expect(200);
    await request(auth)
      .post('/api/v1/introspect')
      .set('Authorization', basicAuth(app))
      .type('form')
      .send({ token: accessToken })
      .expect(200);
  }

  it('direct authentication: the request id comes back, follows the mail job into the worker, and the login completes', async () => {
    const directEmail = `ops-direct-${randomBytes(4).toString('hex')}@example.com`;
    const verifier = remember('code_verifier', randomBytes(32).toString('base64url'));
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const started = await request(auth)
      .post('/api/v1/authenticate_direct')
      .set('Authorization', basicAuth(app))
      .set('X-Request-Id', requestId)
      .send({
        email: directEmail,
        redirect_uri: REDIRECT_URI,
        state: 'ops-state',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      })
      .expect(200);
    expect(started.headers['x-request-id']).toBe(requestId);

    const { callback } = await useLink(directEmail);
    const code = remember('authorization code', callback.searchParams.get('code'));
    await exchange(code, verifier);

    const workerLine = await apps['mail-worker'].waitForLog(
      (line) => line.requestId === requestId && String(line.msg).startsWith('Sent login link e-mail'),
      10_000,
      'the sent line',
    );
    expect(workerLine).toEqual(
      expect.objectContaining({ app: 'mail-worker', level: 'info', requestId, loginAttemptId: started.body.loginAttemptId }),
    );
    const authLine = apps['auth-api'].logs().find((line) => line.requestId === requestId && line.msg === 'request completed');
    expect(authLine).toEqual(expect.objectContaining({ app: 'auth-api', res: expect.objectContaining({ statusCode: 200 }) }));
  });

  it('an unsafe X-Request-Id is replaced by a generated one', async () => {
    const response = await request(auth).get('/api/v1/.well-known/jwks.json').set('X-Request-Id', 'not safe; <script>').expect(200);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('failures: a used link, a second request before allowedDate, an unknown link', async () => {
    const again = `ops-again-${randomBytes(4).toString('hex')}@example.com`;
    const start = () =>
      request(auth)
        .post('/api/v1/authenticate_direct')
        .set('Authorization', basicAuth(app))
        .send({ email: again, redirect_uri: REDIRECT_URI, state: 's' });
    await start().expect(200);
    await start().expect(429);
    const { token } = await useLink(again);
    const reused = await request(auth).post('/api/v1/login_link').type('form').send({ token }).expect(303);
    expect(new URL(reused.headers.location).searchParams.get('error')).toBe('login_link_used');
    await request(auth)
      .post('/api/v1/login_link')
      .type('form')
      .send({ token: randomBytes(32).toString('base64url') })
      .expect(404);
  });

  it('the hosted login page, with its CSRF cookie', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const query = {
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: REDIRECT_URI,
      state: 'hosted',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    };
    const form = await request(auth).get('/api/v1/authorize').query(query).expect(200);
    const cookie = String(form.headers['set-cookie']?.[0] ?? '').split(';')[0];
    remember('CSRF cookie', cookie.split('=')[1]);
    const fields = Object.fromEntries(
      [...form.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [
        match[1],
        match[2].replace(/&amp;/g, '&'),
      ]),
    );
    remember('CSRF form value', fields.csrf);
    const email = `ops-hosted-${randomBytes(4).toString('hex')}@example.com`;
    await request(auth)
      .post('/api/v1/authorize')
      .set('Cookie', cookie)
      .type('form')
      .send({ ...fields, email })
      .expect(200);
    const { callback } = await useLink(email);
    await exchange(remember('hosted code', callback.searchParams.get('code')), remember('hosted code_verifier', verifier));
  });

  it('a mail that fails once is retried, one that keeps failing is given up', async () => {
    smtp.refuseNext(1);
    const retried = `ops-retry-${randomBytes(4).toString('hex')}@example.com`;
    await request(auth)
      .post('/api/v1/authenticate_direct')
      .set('Authorization', basicAuth(app))
      .send({ email: retried, redirect_uri: REDIRECT_URI, state: 's' })
      .expect(200);
    remember('retried link token', new URL(linkIn(await smtp.next(retried))).searchParams.get('token'));

    smtp.refuseNext(2);
    const failing = `ops-failing-${randomBytes(4).toString('hex')}@example.com`;
    await request(auth)
      .post('/api/v1/authenticate_direct')
      .set('Authorization', basicAuth(app))
      .send({ email: failing, redirect_uri: REDIRECT_URI, state: 's' })
      .expect(200);
    await apps['mail-worker'].waitForLog((line) => String(line.msg).includes('giving up'), LINE_WAIT_MS, 'the give-up line');
  });

  it('a tenant over its endpoint limit gets 429', async () => {
    const status = () =>
      request(auth).get(`/api/v1/login_attempt/00000000-0000-4000-8000-000000000000`).set('Authorization', basicAuth(basicApp));
    await status().expect(404);
    await status().expect(404);
    await status().expect(429);
  });

  describe('metrics', () => {
    const after = {} as Record<AppName, Samples>;
    beforeAll(async () => {
      // Each job's counter moves before its line is logged: wait for the four mails sent.
      await apps['mail-worker'].output.waitForCount((line) => line.includes(': sent (try '), 4, LINE_WAIT_MS, 'sent jobs');
      for (const name of Object.keys(apps) as AppName[]) after[name] = await scrape(apps[name].url);
    });
    const delta = (name: AppName, series: string) => moved(before[name], after[name], series);

    it('auth-api: logins started, completed and failed by reason, mail jobs queued, 429s by scope and plan', () => {
      expect({
        direct: delta('auth-api', 'sesame_logins_started_total{flow="direct"}'),
        hosted: delta('auth-api', 'sesame_logins_started_total{flow="hosted"}'),
        completed: delta('auth-api', 'sesame_logins_completed_total'),
        used: delta('auth-api', 'sesame_logins_failed_total{reason="login_link_used"}'),
        tooEarly: delta('auth-api', 'sesame_logins_failed_total{reason="too_early"}'),
        unknown: delta('auth-api', 'sesame_logins_failed_total{reason="unknown_link"}'),
        queued: delta('auth-api', 'sesame_mail_jobs_queued_total'),
        limited: delta('auth-api', 'sesame_rate_limited_total{plan="basic",scope="endpoint"}'),
      }).toEqual({ direct: 4, hosted: 1, completed: 3, used: 1, tooEarly: 1, unknown: 1, queued: 5, limited: 1 });
    });

    it('auth-api: latency per route (from Nest metadata), method and status', () => {
      expect(
        delta('auth-api', 'http_request_duration_seconds_count{method="POST",route="/api/v1/authenticate_direct",status_code="200"}'),
      ).toBe(4);
      expect(
        delta('auth-api', 'http_request_duration_seconds_count{method="POST",route="/api/v1/authenticate_direct",status_code="429"}'),
      ).toBe(1);
      expect(
        delta(
          'auth-api',
          'http_request_duration_seconds_count{method="GET",route="/api/v1/login_attempt/:loginAttemptId",status_code="429"}',
        ),
      ).toBe(1);
      expect(delta('auth-api', 'http_request_duration_seconds_count{method="POST",route="/api/v1/verify",status_code="200"}')).toBe(2);
      expect(
        delta('auth-api', 'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v1/userinfo",status_code="200"}'),
      ).toBe(2);
      expect([...after['auth-api'].keys()].filter((series) => series.includes('00000000-0000'))).toEqual([]);
    });

    it('mail-worker: jobs sent, retried and failed, and the queue depth', () => {
      expect({
        sent: delta('mail-worker', 'sesame_mail_jobs_sent_total'),
        retried: delta('mail-worker', 'sesame_mail_jobs_retried_total'),
        failed: delta('mail-worker', 'sesame_mail_jobs_failed_total'),
      }).toEqual({ sent: 4, retried: 2, failed: 1 });
      expect(after['mail-worker'].get('sesame_queue_jobs{queue="mail",state="failed"}')).toBeGreaterThanOrEqual(1);
      expect(after['mail-worker'].has('sesame_queue_jobs{queue="mail",state="waiting"}')).toBe(true);
    });

    it('management-api: latency per route, the queue depth, and Node defaults everywhere', () => {
      expect(delta('management-api', 'http_request_duration_seconds_count{method="POST",route="/api/v2/tenant",status_code="201"}')).toBe(
        2,
      );
      expect(
        delta(
          'management-api',
          'http_request_duration_seconds_count{method="POST",route="/api/v2/organization/:organizationId/application",status_code="201"}',
        ),
      ).toBe(2);
      expect(after['management-api'].get('sesame_queue_jobs{queue="mail",state="failed"}')).toBeGreaterThanOrEqual(1);
      for (const name of Object.keys(apps) as AppName[])
        expect([name, after[name].has('process_resident_memory_bytes')]).toEqual([name, true]);
    });

    it('/api/metrics needs no API key and is not counted by any rate limit', async () => {
      const response = await request(management).get('/api/metrics').expect(200);
      expect(response.headers['ratelimit-limit']).toBeUndefined();
    });
  });

  describe('logs', () => {
    let lines: { app: AppName; text: string; parsed: LogLine | null }[];
    beforeAll(() => {
      lines = (Object.keys(apps) as AppName[]).flatMap((name) =>
        apps[name].output.lines.map((text) => {
          try {
            return { app: name, text, parsed: JSON.parse(text) as LogLine };
          } catch {
            return { app: name, text, parsed: null };
          }
        }),
      );
    });

    it('every line is a JSON object with level, time, app and message', () => {
      expect(lines.length).toBeGreaterThan(100);
      expect(lines.filter((line) => line.parsed === null).map((line) => `${line.app}: ${line.text}`)).toEqual([]);
      for (const { parsed, app: name } of lines)
        expect(parsed).toEqual(
          expect.objectContaining({ level: expect.any(String), time: expect.any(String), app: name, msg: expect.any(String) }),
        );
    });

    it('no line contains a secret, token, code or link token of the flow', () => {
      expect(secrets.size).toBeGreaterThanOrEqual(15);
      const leaks = [...secrets].flatMap(([name, secret]) =>
        lines.filter((line) => line.text.includes(secret)).map((line) => `${name} in ${line.app}: ${line.text}`),
      );
      expect(leaks).toEqual([]);
    });

    it('credentials and secret parameters are logged as [Redacted]', () => {
      const authorized = lines.find((line) => line.parsed?.requestId === requestId && line.parsed.msg === 'request completed')!;
      expect((authorized.parsed!.req as { headers: Record<string, string> }).headers.authorization).toBe('[Redacted]');
      const link = lines.find(
        (line) =>
          line.parsed?.msg === 'request completed' && String((line.parsed.req as { url: string }).url).startsWith('/api/v1/login_link?'),
      );
      expect((link!.parsed!.req as { url: string }).url).toBe('/api/v1/login_link?[Redacted]');
      const redirect = lines.find(
        (line) => line.parsed?.msg === 'request completed' && (line.parsed.res as { statusCode: number }).statusCode === 303,
      );
      expect((redirect!.parsed!.res as { headers: { location: string } }).headers.location).toMatch(/[?&]code=\[Redacted\]/);
    });
  });
});
