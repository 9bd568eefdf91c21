import type { Job } from 'bull';
import { MailSweeper } from '../../apps/mail-worker/src/mail/mail-sweeper';
import { RunningApp, startAuthApi, startMailWorker, startManagementApi } from '../support/apps';
import { attemptsOf, authenticateDirect, mailQueueOf, query, tokenIn, useLink } from '../support/direct-auth';
import { uniqueEmail } from '../support/login';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { HoldingSmtp } from '../support/holding-smtp';
import { call } from '../support/management';
import { linkIn, SmtpSink } from '../support/smtp-sink';

const REDIRECT_URI = 'http://localhost:4000/callback';
const MAIL_ATTEMPTS = 3;
/**
 * For every app of this file. Job options (attempts, backoff) are set by the producer, so they
 * go to auth-api as well as to the worker. Sweeps happen only when a test asks for one.
 */
const ENV = { MAIL_RETRY_DELAY_MS: '20', MAIL_ATTEMPTS: String(MAIL_ATTEMPTS), MAIL_SWEEP_INTERVAL_SECONDS: '3600' };

/**
 * The mail worker on Bull, with the real apps, Redis, Postgres and SMTP: jobs that wait for a
 * stopped worker, SMTP failures and retries, the sweeper, shutdown in the middle of a delivery
 * and the rendered e-mail. "Sent once" is proved with a sentinel: the worker handles jobs one at
 * a time in order, so once a later request's e-mail has arrived, every earlier job is done.
 */
describe('mail delivery', () => {
  const smtp = new SmtpSink();
  let management: RunningApp;
  let auth: RunningApp;
  let worker: RunningApp | null = null;
  let app: ApplicationFixture;

  const startWorker = (smtpUrl = smtp.url) => startMailWorker({ env: { ...ENV, SMTP_URL: smtpUrl, PUBLIC_BASE_URL: `${auth.url}/api` } });
  const start = (email: string, body: Record<string, unknown> = {}) =>
    authenticateDirect(auth.url, app, { email, redirect_uri: REDIRECT_URI, state: 'st', ...body }).expect(200);

  async function drainWithSentinel(): Promise<void> {
    const sentinel = uniqueEmail('sentinel');
    await start(sentinel);
    await smtp.next(sentinel);
  }

  async function stopWorker(): Promise<void> {
    await worker?.close();
    worker = null;
  }

  beforeAll(async () => {
    await smtp.start();
    management = await startManagementApi({ env: ENV });
    auth = await startAuthApi({ env: ENV });
    const tenant = await createTenant(management.url, 'pro');
    const organization = await createOrganization(management.url, tenant, {
      name: 'Mail & Co',
      whitelistDomains: ['http://localhost:4000'],
    });
    app = await createApplication(management.url, organization, { type: 'web' });
  });

  afterAll(async () => {
    await stopWorker();
    await auth.close();
    await management.close();
    await smtp.stop();
  });

  it('a job that waits while the worker is stopped is delivered once when the worker starts', async () => {
    const email = uniqueEmail('waiting');
    const started = await start(email);
    const job = await mailQueueOf(auth).getJob(started.body.loginAttemptId);
    expect(job).not.toBeNull();
    // Ids only: the payload never carries the address or the link token.
    expect(Object.keys(job!.data).sort()).toEqual(['loginAttemptId', 'requestId', 'version']);
    expect(job!.data).toMatchObject({ version: 1, loginAttemptId: started.body.loginAttemptId });
    expect(JSON.stringify(job!.data)).not.toContain(email);
    expect(await job!.getState()).toBe('waiting');
    const [before] = await attemptsOf(app.applicationId, email);
    expect(before.mail_queued_at).not.toBeNull();
    expect(before.mail_sent_at).toBeNull();

    worker = await startWorker();
    const mail = await smtp.next(email);
    expect(mail.text).toContain(started.body.sentence);
    await drainWithSentinel();
    expect(smtp.pending(email)).toEqual([]);
    const [after] = await attemptsOf(app.applicationId, email);
    expect(after.mail_sent_at).not.toBeNull();

    // A restarted worker does not send it again.
    await stopWorker();
    worker = await startWorker();
    await drainWithSentinel();
    expect(smtp.pending(email)).toEqual([]);
  });

  it('an SMTP server that refuses the first attempts still gets the e-mail exactly once', async () => {
    worker ??= await startWorker();
    const email = uniqueEmail('refused');
    const attemptsBefore = smtp.attempts;
    smtp.refuseNext(MAIL_ATTEMPTS - 1);
    const started = await start(email);
    const mail = await smtp.next(email);
    expect(mail.text).toContain(started.body.sentence);
    expect(smtp.attempts - attemptsBefore).toBe(MAIL_ATTEMPTS);
    await drainWithSentinel();
    expect(smtp.pending(email)).toEqual([]);
    const [row] = await attemptsOf(app.applicationId, email);
    expect(row.mail_sent_at).not.toBeNull();
    // The link of the retried e-mail works.
    const used = await useLink(auth.url, tokenIn(mail)).expect(303);
    expect(new URL(used.headers.location).searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('the e-mail’s Message-ID is a random id kept on its attempt (the same on every try), never the attempt’s id', async () => {
    worker ??= await startWorker();
    const email = uniqueEmail('message-id');
    const started = await start(email);
    const mail = await smtp.next(email);
    const [row] = await query<{ message_id: string }>('SELECT message_id FROM login_attempt WHERE id = $1', [started.body.loginAttemptId]);
    expect(mail.parsed.messageId).toBe(`<${row.message_id}@sesame.localhost>`);
    expect(mail.parsed.messageId).not.toContain(started.body.loginAttemptId);
    expect(mail.text).not.toContain(started.body.loginAttemptId);
  });

  it(`a job that fails ${MAIL_ATTEMPTS} times is kept as failed, with its reason`, async () => {
    worker ??= await startWorker();
    const email = uniqueEmail('failing');
    const queue = mailQueueOf(worker);
    const attemptsBefore = smtp.attempts;
    smtp.refuseNext(MAIL_ATTEMPTS);
    const finalFailure = new Promise<Job>((resolve) => {
      const onFailed = (job: Job) => {
        if (job.attemptsMade >= MAIL_ATTEMPTS) {
          queue.off('failed', onFailed);
          resolve(job);
        }
      };
      queue.on('failed', onFailed);
    });
    const started = await start(email);
    const failed = await finalFailure;
    expect(failed.id).toBe(started.body.loginAttemptId);
    expect(smtp.attempts - attemptsBefore).toBe(MAIL_ATTEMPTS);

    const kept = await mailQueueOf(auth).getJob(started.body.loginAttemptId);
    expect(await kept!.getState()).toBe('failed');
    expect(kept!.attemptsMade).toBe(MAIL_ATTEMPTS);
    expect(kept!.failedReason).toMatch(/451|Temporary failure/);
    const [row] = await attemptsOf(app.applicationId, email);
    expect(row.mail_sent_at).toBeNull();
    await drainWithSentinel();
    expect(smtp.pending(email)).toEqual([]);
  });

  it('the sweeper queues again attempts whose mail was never queued or was lost, once, and only while their link is valid', async () => {
    worker ??= await startWorker();
    const queue = mailQueueOf(auth);
    // Jobs added while the queue is paused wait in Redis; nothing is delivered until it resumes.
    await queue.pause();
    try {
      const blockedEmail = uniqueEmail('sweep-blocked');
      await call(management.url, 'post', `/organization/${app.organizationId}/user`, app.apiKey, {
        email: blockedEmail,
        blocked: true,
      }).expect(201);
      const emails = {
        neverQueued: uniqueEmail('sweep-never'),
        lost: uniqueEmail('sweep-lost'),
        waiting: uniqueEmail('sweep-waiting'),
        expired: uniqueEmail('sweep-expired'),
        blocked: blockedEmail,
      };
      const ids: Record<keyof typeof emails, string> = {} as Record<keyof typeof emails, string>;
      for (const [name, email] of Object.entries(emails) as [keyof typeof emails, string][])
        ids[name] = (await start(email)).body.loginAttemptId;

      // never queued: auth-api stopped between recording the attempt and queueing its job
      await (await queue.getJob(ids.neverQueued))!.remove();
      await query('UPDATE login_attempt SET mail_queued_at = NULL WHERE id = $1', [ids.neverQueued]);
      // lost: the job vanished from Redis
      await (await queue.getJob(ids.lost))!.remove();
      await (await queue.getJob(ids.expired))!.remove();
      await (await queue.getJob(ids.blocked))!.remove();
      // All of them are older than the sweeper's grace period; one has expired.
      await query(`UPDATE login_attempt SET created_at = created_at - interval '31 seconds' WHERE id = ANY($1)`, [Object.values(ids)]);
      await query(`UPDATE login_attempt SET expires_at = now() - interval '1 second' WHERE id = $1`, [ids.expired]);

      await worker.app.get(MailSweeper).sweep();

      const [neverQueued] = await attemptsOf(app.applicationId, emails.neverQueued);
      expect(neverQueued.mail_queued_at).not.toBeNull();
      for (const name of ['neverQueued', 'lost', 'waiting'] as const) expect(await queue.getJob(ids[name])).not.toBeNull();
      for (const name of ['expired', 'blocked'] as const) expect(await queue.getJob(ids[name])).toBeNull();
      const [expired] = await attemptsOf(app.applicationId, emails.expired);
      expect({ status: expired.status, sealedToken: expired.link_token_encrypted }).toEqual({ status: 'expired', sealedToken: null });
      // A second sweep does not add a job that exists already.
      const waitingBefore = (await queue.getJobCounts()) as unknown as Record<string, number>;
      await worker.app.get(MailSweeper).sweep();
      expect(await queue.getJobCounts()).toEqual(waitingBefore);
    } finally {
      await queue.resume();
    }

    for (const email of ['sweep-never', 'sweep-lost', 'sweep-waiting']) {
      const row = (
        await query<{ email: string }>('SELECT email FROM login_attempt WHERE application_id = $1 AND email LIKE $2', [
          app.applicationId,
          `${email}-%`,
        ])
      )[0];
      const mail = await smtp.next(row.email);
      expect(linkIn(mail)).toContain('/v1/login_link?token=');
    }
    await drainWithSentinel();
    for (const prefix of ['sweep-never', 'sweep-lost', 'sweep-waiting', 'sweep-expired', 'sweep-blocked']) {
      const rows = await query<{ email: string }>('SELECT email FROM login_attempt WHERE application_id = $1 AND email LIKE $2', [
        app.applicationId,
        `${prefix}-%`,
      ]);
      expect(rows).toHaveLength(1);
      expect(smtp.pending(rows[0].email)).toEqual([]);
    }
  });

  it('renders the e-mail: default English strings, or the request’s translations as escaped plain text that cannot change the link', async () => {
    worker ??= await startWorker();
    const plain = uniqueEmail('default-strings');
    const plainStarted = await start(plain);
    const defaults = await smtp.next(plain);
    expect(defaults.subject).toBe('Your sign-in link for Mail & Co');
    expect(defaults.text).toContain('Hello,');
    expect(defaults.text).toContain('The link expires in 10 minutes and works only once.');
    expect(defaults.text).toContain(plainStarted.body.sentence);
    expect(defaults.html).toContain('Mail &amp; Co');
    expect(defaults.parsed.from?.value).toEqual([{ name: 'Sesame', address: 'no-reply@sesame.localhost' }]);

    const email = uniqueEmail('translated');
    const translations = {
      subject: 'Anmeldung bei {organization} <b>',
      greeting: 'Hallo {{link}} {{{link}}}',
      intro: '<a href="https://evil.example/steal">Klick</a> & {organization}',
      button: 'Jetzt anmelden"><script>alert(1)</script>',
      expiry: 'Läuft in {minutes} Minuten ab.',
      ignore: '{{#each this}}x{{/each}}',
    };
    const started = await start(email, { translations });
    const mail = await smtp.next(email);
    expect(mail.subject).toBe('Anmeldung bei Mail & Co <b>');
    expect(mail.text).toContain('Hallo {{link}} {{{link}}}');
    expect(mail.text).toContain('<a href="https://evil.example/steal">Klick</a> & Mail & Co');
    expect(mail.text).toContain('Läuft in 10 Minuten ab.');
    expect(mail.text).toContain('{{#each this}}x{{/each}}');
    expect(mail.text).toContain(started.body.sentence);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('href="https://evil.example');
    expect(mail.html).toContain('&lt;a href&#x3D;&quot;https://evil.example/steal&quot;&gt;Klick&lt;/a&gt; &amp; Mail &amp; Co');
    expect(mail.html).toContain('Jetzt anmelden&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');

    // Every link in the e-mail is the one login link, in both parts.
    const link = linkIn(mail);
    expect(link).toBe(`${auth.url}/api/v1/login_link?token=${tokenIn(mail)}`);
    const hrefs = [...mail.html.matchAll(/href="([^"]*)"/g)].map((match) => match[1].replace(/&#x3D;/g, '=').replace(/&amp;/g, '&'));
    expect(hrefs).toEqual([link]);
    const urls = mail.text.match(/https?:\/\/[^\s"<>]+/g) ?? [];
    expect(new Set(urls.filter((url) => !url.startsWith('https://evil.example/steal')))).toEqual(new Set([link]));
  });

  it('stopping the worker in the middle of a delivery finishes it, marks it sent, and it is never sent again', async () => {
    await stopWorker();
    const holding = new HoldingSmtp();
    await holding.start();
    try {
      worker = await startWorker(holding.url);
      const workerQueue = mailQueueOf(worker);
      const email = uniqueEmail('shutdown');
      const held = holding.hold();
      const started = await start(email);
      await held; // the worker is sending: the message's data has arrived and awaits our answer

      const closing = worker.close();
      worker = null;
      // Let the shutdown reach the queue (it waits for the job in hand) before the SMTP server answers.
      while (!(workerQueue as unknown as { closing?: Promise<void> }).closing) await new Promise((resolve) => setImmediate(resolve));
      holding.release();
      await closing;

      expect(holding.to(email)).toHaveLength(1);
      const [row] = await attemptsOf(app.applicationId, email);
      expect(row.mail_sent_at).not.toBeNull();
      expect(await mailQueueOf(auth).getJob(started.body.loginAttemptId)).toBeNull(); // completed (and removed), not failed

      worker = await startWorker();
      await drainWithSentinel();
      expect(smtp.pending(email)).toEqual([]);
    } finally {
      await holding.stop();
    }
  });
});
