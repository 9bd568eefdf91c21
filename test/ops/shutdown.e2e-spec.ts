import { randomBytes } from 'node:crypto';
import { ClientRequest, IncomingMessage, request as httpRequest } from 'node:http';
import { Client } from 'pg';
import request from 'supertest';
import { createWebApplication } from '../support/fixtures';
import { SmtpSink } from '../support/smtp-sink';
import { TEST_PLATFORM_API_KEY } from '../support/test-env';
import { AppProcess, startAppProcess } from './support/app-process';
import { HoldingSmtp } from '../support/holding-smtp';
import { basicAuth } from '../support/login';
import { scrape, value } from './support/metrics';
import { LINE_WAIT_MS } from './support/lines';

/** A request whose body is sent in two parts, so that it is in flight for as long as the test wants. */
function splitRequest(url: string, path: string, headers: Record<string, string>, body: string) {
  const { hostname, port } = new URL(url);
  const bytes = Buffer.from(body);
  let req!: ClientRequest;
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req = httpRequest(
      {
        host: hostname,
        port,
        path,
        method: 'POST',
        agent: false,
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(bytes.length), Connection: 'close' },
      },
      (res: IncomingMessage) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', reject);
  });
  req.flushHeaders();
  req.write(bytes.subarray(0, 5));
  return { response, finish: () => req.end(bytes.subarray(5)) };
}

describe('graceful shutdown (SIGTERM)', () => {
  describe('the mail worker, during a mail job', () => {
    const smtp = new HoldingSmtp();
    let management: AppProcess;
    let auth: AppProcess;
    let worker: AppProcess;
    let database: Client;

    beforeAll(async () => {
      await smtp.start();
      database = new Client({ connectionString: process.env.DATABASE_URL });
      await database.connect();
      const env = { SMTP_URL: smtp.url, LOG_LEVEL: 'info' };
      [management, auth, worker] = await Promise.all([
        startAppProcess('management-api', env),
        startAppProcess('auth-api', env),
        startAppProcess('mail-worker', env),
      ]);
    }, 60_000);
    afterAll(async () => {
      await Promise.all([management, auth, worker].filter(Boolean).map((app) => app.stop()));
      await database.end();
      await smtp.stop();
    }, 30_000);

    it('finishes the job: the mail is delivered exactly once, recorded as sent, nothing is left in the queue, and the worker exits 0', async () => {
      const app = await createWebApplication(management.url);
      const email = `ops-sigterm-${randomBytes(4).toString('hex')}@example.com`;
      const held = smtp.hold();
      const started = await request(auth.url)
        .post('/api/v1/authenticate_direct')
        .auth(app.clientId, app.clientSecret!)
        .send({ email, redirect_uri: 'http://localhost:4000/callback', state: 's' })
        .expect(200);

      await held; // The worker has sent the message and waits for the server's answer.
      worker.kill('SIGTERM');
      await worker.waitForLog(
        (line) => line.msg === 'Stopping: no new mail jobs; finishing the current one',
        LINE_WAIT_MS,
        'the stopping line',
      );
      expect(worker.running).toBe(true);
      smtp.release();

      expect(await worker.exited).toEqual({ code: 0, signal: null });
      expect(smtp.to(email)).toHaveLength(1);
      const { rows } = await database.query('SELECT mail_sent_at FROM login_attempt WHERE id = $1', [started.body.loginAttemptId]);
      expect(rows[0].mail_sent_at).toBeInstanceOf(Date);
      // A job cut off mid-way would be left active (stalled) and sent again by the next worker.
      const depth = await scrape(management.url);
      for (const state of ['waiting', 'active', 'delayed', 'failed'])
        expect([state, value(depth, `sesame_queue_jobs{queue="mail",state="${state}"}`)]).toEqual([state, 0]);
      expect(worker.output.lines.join('\n')).toContain('Sent login link e-mail');
      // The order docs/operations.md promises: no new job, the send in progress finishes, then SMTP closes.
      const messages = worker.logs().map((line) => String(line.msg));
      const at = (prefix: string) => messages.findIndex((message) => message.startsWith(prefix));
      expect(
        [at('Stopping: no new mail jobs'), at('Sent login link e-mail'), at('SMTP connections closed')].every(
          (index, i, all) => index >= 0 && (i === 0 || index > all[i - 1]),
        ),
      ).toBe(true);
      expect(messages.filter((message) => message.includes('Connection pool was closed'))).toEqual([]);
      expect(await worker.healthCheck()).toBe(1);
    });
  });

  describe.each(['express', 'fastify'])('the HTTP apps on %s, with a request in flight', (platform) => {
    const smtp = new SmtpSink();
    beforeAll(() => smtp.start());
    afterAll(() => smtp.stop());

    async function inFlight(app: AppProcess, path: string, headers: Record<string, string>, body: object) {
      const requestId = `ops-inflight-${randomBytes(4).toString('hex')}`;
      const call = splitRequest(app.url, path, { ...headers, 'X-Request-Id': requestId }, JSON.stringify(body));
      await app.waitForLog(
        (line) => line.requestId === requestId && line.msg === 'request received',
        LINE_WAIT_MS,
        'the request to arrive',
      );
      app.kill('SIGTERM');
      await app.waitForLog((line) => String(line.msg).startsWith('Shutting down'), LINE_WAIT_MS, 'the shutdown line');
      call.finish();
      const result = { response: await call.response, exit: await app.exited };
      // The request's own log line carries the id on either platform.
      expect(
        app
          .logs()
          .filter((line) => line.requestId === requestId)
          .map((line) => line.msg),
      ).toEqual(expect.arrayContaining(['request received', 'request completed']));
      return result;
    }

    it('management-api answers it (the tenant is created), closes, and exits 0', async () => {
      const app = await startAppProcess('management-api', { HTTP_PLATFORM: platform });
      const name = `Created during shutdown ${randomBytes(3).toString('hex')}`;
      const { response, exit } = await inFlight(
        app,
        '/api/v2/tenant',
        { Authorization: `Bearer ${TEST_PLATFORM_API_KEY}` },
        { name, plan: 'free' },
      );
      expect(response.status).toBe(201);
      expect(JSON.parse(response.body).tenant.name).toBe(name);
      expect(exit).toEqual({ code: 0, signal: null });
    }, 30_000);

    it('auth-api answers it (the login e-mail is queued), closes, and exits 0', async () => {
      const management = await startAppProcess('management-api', { HTTP_PLATFORM: platform });
      const client = await createWebApplication(management.url);
      await management.stop();
      const auth = await startAppProcess('auth-api', { HTTP_PLATFORM: platform });
      const email = `ops-inflight-${randomBytes(4).toString('hex')}@example.com`;
      const { response, exit } = await inFlight(
        auth,
        '/api/v1/authenticate_direct',
        { Authorization: basicAuth(client) },
        { email, redirect_uri: 'http://localhost:4000/callback', state: 's' },
      );
      expect(response.status).toBe(200);
      expect(exit).toEqual({ code: 0, signal: null });
      // The job it queued is delivered by a worker started afterwards.
      const worker = await startAppProcess('mail-worker', { HTTP_PLATFORM: platform, SMTP_URL: smtp.url });
      expect((await smtp.next(email)).to).toBe(email);
      expect(await worker.stop()).toEqual({ code: 0, signal: null });
    }, 40_000);
  });

  describe.each(['express', 'fastify'])('auth-api behind a gateway on %s: SIGTERM with SHUTDOWN_DRAIN_SECONDS', (platform) => {
    it('keeps answering during the drain, each answer closing its connection, reports itself unready, ends held waits at once, then exits 0', async () => {
      const management = await startAppProcess('management-api', { HTTP_PLATFORM: platform });
      const client = await createWebApplication(management.url);
      await management.stop();
      const auth = await startAppProcess('auth-api', { HTTP_PLATFORM: platform, SHUTDOWN_DRAIN_SECONDS: '10', LOG_LEVEL: 'debug' });
      const headers = { Authorization: basicAuth(client), 'Content-Type': 'application/json' };
      const login = () =>
        fetch(`${auth.url}/api/v1/authenticate_direct`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            email: `ops-drain-${randomBytes(4).toString('hex')}@example.com`,
            redirect_uri: 'http://localhost:4000/callback',
            state: 's',
          }),
        });
      const wait = (loginAttemptId: string, requestId = randomBytes(4).toString('hex')) =>
        fetch(`${auth.url}/api/v1/login_attempt/${loginAttemptId}?wait=25`, { headers: { ...headers, 'X-Request-Id': requestId } });
      const heldId = `ops-held-${randomBytes(4).toString('hex')}`;
      const held = wait(((await (await login()).json()) as { loginAttemptId: string }).loginAttemptId, heldId);
      await auth.waitForLog((line) => line.requestId === heldId && line.msg === 'request received', LINE_WAIT_MS, 'the wait to arrive');

      // A drain long enough for the checks below on a loaded machine: each ends with the app still answering.
      auth.kill('SIGTERM');
      await auth.waitForLog((line) => String(line.msg).startsWith('SIGTERM: answering for 10000 ms more'), LINE_WAIT_MS, 'the drain');
      // The wait held before the signal is answered now, not at its 25 s.
      const heldAnswer = await held;
      expect(heldAnswer.status).toBe(200);
      expect(await heldAnswer.json()).toMatchObject({ status: 'pending' });
      expect(auth.running).toBe(true);

      const health = await fetch(`${auth.url}/api/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ error: { shutdown: { status: 'down', message: 'shutting down' } } });

      const during = await login();
      expect(during.status).toBe(200);
      expect(during.headers.get('connection')).toBe('close');
      const { loginAttemptId } = (await during.json()) as { loginAttemptId: string };
      const newWait = await wait(loginAttemptId);
      expect(await newWait.json()).toMatchObject({ status: 'pending' });
      // Not held: answered while the app still drains.
      expect(auth.running).toBe(true);

      expect(await auth.exited).toEqual({ code: 0, signal: null });
    }, 60_000);
  });
});
