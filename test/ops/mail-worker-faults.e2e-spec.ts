import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { REDIS } from '@sesame/common';
import Redis from 'ioredis';
import { createServer, Server, Socket } from 'node:net';
import request from 'supertest';
import { freePort, startMailWorker } from '../support/apps';
import { query } from '../support/direct-auth';
import { createWebApplication } from '../support/fixtures';
import { FILE_REDIS_PREFIX } from '../support/config';
import { basicAuth } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';
import { AppProcess, startAppProcess, startPublicAuthProcess } from './support/app-process';
import { LINE_WAIT_MS } from './support/lines';

const REDIRECT_URI = 'http://localhost:4000/callback';

/** An SMTP address that accepts connections and never greets: a send on it waits, its job stays active. */
async function silentSmtp(): Promise<{ url: string; connected: Promise<void>; close(): Promise<void> }> {
  const sockets: Socket[] = [];
  let connected!: () => void;
  const first = new Promise<void>((resolve) => (connected = resolve));
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    connected();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    connected: first,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('mail worker faults', () => {
  it('health with SMTP down names the state of Postgres, Redis and SMTP', async () => {
    const worker = await startMailWorker({ env: { SMTP_URL: `smtp://127.0.0.1:${await freePort()}` } });
    try {
      const redis = worker.app.get<Redis>(REDIS);
      if (redis.status !== 'ready') await once(redis, 'ready');
      const response = await request(worker.url).get('/api/health');
      expect(response.status).toBe(503);
      expect(response.body).toMatchObject({
        status: 'error',
        details: { postgres: { status: 'up' }, redis: { status: 'up' }, smtp: { status: 'down', message: expect.any(String) } },
      });
    } finally {
      await worker.close();
    }
  });

  describe('a worker killed with -9 mid-send', () => {
    const smtp = new SmtpSink();
    let management: AppProcess;
    let auth: AppProcess;
    let workers: AppProcess[] = [];
    let silent: Awaited<ReturnType<typeof silentSmtp>>;

    beforeAll(async () => {
      await smtp.start();
      silent = await silentSmtp();
      let shared: Record<string, string>;
      ({ auth, shared } = await startPublicAuthProcess({ LOG_LEVEL: 'info' }));
      management = await startAppProcess('management-api', shared);
      workers = [await startAppProcess('mail-worker', { ...shared, SMTP_URL: silent.url })];
    }, 60_000);
    afterAll(async () => {
      await Promise.all([management, auth, ...workers].filter(Boolean).map((app) => app.stop()));
      await silent?.close();
      await smtp.stop();
    }, 30_000);

    it('the next worker delivers the e-mail within seconds, not Bull’s minute, once', async () => {
      const app = await createWebApplication(management.url);
      const email = `ops-kill9-${randomBytes(4).toString('hex')}@example.com`;
      const started = await request(auth.url)
        .post('/api/v1/authenticate_direct')
        .set('Authorization', basicAuth(app))
        .send({ email, redirect_uri: REDIRECT_URI, state: 's' })
        .expect(200);
      await silent.connected; // The job is active: the worker is sending it.
      // What the crash delays the e-mail by is the dead worker's job lock: it lasts at most 5 s (Bull's
      // default, 30 s), read from Redis rather than timed, which on a loaded machine measures the
      // load. The drills measure the delay itself.
      const redis = new Redis(process.env.REDIS_URL!);
      try {
        const lockMs = await redis.pttl(`{${FILE_REDIS_PREFIX}:bull}:mail:${started.body.loginAttemptId}:lock`);
        expect(lockMs).toBeGreaterThan(0);
        expect(lockMs).toBeLessThanOrEqual(5000);
      } finally {
        redis.disconnect();
      }
      workers.push(await startAppProcess('mail-worker', { PUBLIC_BASE_URL: `${auth.url}/api`, LOG_LEVEL: 'info', SMTP_URL: smtp.url }));
      workers[0].kill('SIGKILL');
      expect(await workers[0].exited).toEqual({ code: null, signal: 'SIGKILL' });
      await smtp.next(email);
      await workers[1].waitForLog((line) => String(line.msg).startsWith('Sent login link e-mail'), LINE_WAIT_MS, 'the send to be recorded');
      const [attempt] = await query<{ mail_sent_at: Date | null }>('SELECT mail_sent_at FROM login_attempt WHERE email = $1', [email]);
      expect(attempt.mail_sent_at).toBeInstanceOf(Date);
      expect(smtp.pending(email)).toEqual([]);
    }, 45_000);
  });

  describe('after an SMTP outage', () => {
    /** A small cap, so that the doubling delay outgrows it within a few tries. */
    const RETRY = { MAIL_RETRY_DELAY_MS: '200', MAIL_RETRY_MAX_DELAY_MS: '1000' };
    /**
     * Tries failed before SMTP returns: uncapped, the next would wait 200 ms × 2^10 = 205 s, past the
     * test's 120 s timeout, so the e-mail arriving at all shows the cap; no stopwatch, whose reading on
     * a loaded machine is the load's. (With 10 tries and 45 s, the test itself overran 45 s beside two
     * CI runs.)
     */
    const FAILED_TRIES = 11;
    const smtp = new SmtpSink();
    let management: AppProcess;
    let auth: AppProcess;
    let worker: AppProcess;
    let smtpPort: number;

    beforeAll(async () => {
      smtpPort = await freePort();
      let shared: Record<string, string>;
      ({ auth, shared } = await startPublicAuthProcess({ ...RETRY, LOG_LEVEL: 'info', SMTP_URL: `smtp://127.0.0.1:${smtpPort}` }));
      [management, worker] = await Promise.all([startAppProcess('management-api', shared), startAppProcess('mail-worker', shared)]);
    }, 60_000);
    afterAll(async () => {
      await Promise.all([management, auth, worker].filter(Boolean).map((app) => app.stop()));
      await smtp.stop();
    }, 30_000);

    it('the waiting e-mail goes out within MAIL_RETRY_MAX_DELAY_MS of the server’s return, not after a doubled delay', async () => {
      const app = await createWebApplication(management.url);
      const email = `ops-smtp-outage-${randomBytes(4).toString('hex')}@example.com`;
      const started = await request(auth.url)
        .post('/api/v1/authenticate_direct')
        .set('Authorization', basicAuth(app))
        .send({ email, redirect_uri: REDIRECT_URI, state: 's' })
        .expect(200);
      const failed = `Login link e-mail for attempt ${started.body.loginAttemptId} failed (${FAILED_TRIES}, will retry)`;
      await worker.waitForLog((line) => String(line.msg).startsWith(failed), LINE_WAIT_MS, `try ${FAILED_TRIES} to fail`);
      await smtp.start(smtpPort);
      await smtp.next(email);
    }, 120_000);
  });
});
