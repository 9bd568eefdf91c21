import { startStack, Stack } from '../support/apps';
import { attemptsOf, authenticateDirect, expectOAuthError, mailQueueOf, NO_SWEEPS, query, watchJobs } from '../support/direct-auth';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { pkcePair, uniqueEmail } from '../support/login';
import { call, expectProblem, UNTHROTTLED_ENV, V2 } from '../support/management';
import { SmtpSink } from '../support/smtp-sink';

const REDIRECT_URI = 'http://localhost:4000/callback';
const TAG = `cut${process.pid}`;

/**
 * Real lost connections: triggers of this file end their own backend (pg_terminate_backend, as an
 * operator or a failover would), only for rows carrying this file's marker, so other files never
 * meet them. A sequence (outside transactions) lets a trigger cut just its first statement.
 */
async function installCuts(): Promise<void> {
  await query(`CREATE SEQUENCE IF NOT EXISTS ${TAG}_once`);
  await query(`CREATE SEQUENCE IF NOT EXISTS ${TAG}_sent_once`);
  const cut = 'PERFORM pg_terminate_backend(pg_backend_pid()); PERFORM pg_sleep(1);';
  await query(`CREATE OR REPLACE FUNCTION ${TAG}_cut_organization() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.name LIKE '${TAG}-always%' THEN ${cut} END IF;
      RETURN NEW;
    END $$`);
  await query(`CREATE OR REPLACE FUNCTION ${TAG}_cut_login_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' AND NEW.email LIKE '${TAG}-always%' THEN ${cut} END IF;
      IF TG_OP = 'UPDATE' AND NEW.email LIKE '${TAG}-bookkeeping%' AND OLD.mail_queued_at IS NULL AND NEW.mail_queued_at IS NOT NULL THEN
        IF nextval('${TAG}_once') = 1 THEN ${cut} END IF;
      END IF;
      IF TG_OP = 'UPDATE' AND NEW.email LIKE '${TAG}-sent%' AND OLD.mail_sent_at IS NULL AND NEW.mail_sent_at IS NOT NULL THEN
        IF nextval('${TAG}_sent_once') = 1 THEN ${cut} END IF;
      END IF;
      RETURN NEW;
    END $$`);
  await query(`CREATE TRIGGER ${TAG}_organization BEFORE INSERT ON organization FOR EACH ROW EXECUTE FUNCTION ${TAG}_cut_organization()`);
  await query(
    `CREATE TRIGGER ${TAG}_login_attempt BEFORE INSERT OR UPDATE ON login_attempt FOR EACH ROW EXECUTE FUNCTION ${TAG}_cut_login_attempt()`,
  );
}

async function removeCuts(): Promise<void> {
  await query(`DROP TRIGGER IF EXISTS ${TAG}_organization ON organization`);
  await query(`DROP TRIGGER IF EXISTS ${TAG}_login_attempt ON login_attempt`);
  await query(`DROP FUNCTION IF EXISTS ${TAG}_cut_organization()`);
  await query(`DROP FUNCTION IF EXISTS ${TAG}_cut_login_attempt()`);
  await query(`DROP SEQUENCE IF EXISTS ${TAG}_once`);
  await query(`DROP SEQUENCE IF EXISTS ${TAG}_sent_once`);
}

describe('a Postgres connection lost mid-request', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let app: ApplicationFixture;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url, { env: { ...NO_SWEEPS, ...UNTHROTTLED_ENV } });
    const tenant = await createTenant(stack.management.url);
    app = await createApplication(stack.management.url, await createOrganization(stack.management.url, tenant), { type: 'web' });
    await installCuts();
  });
  afterAll(async () => {
    await removeCuts();
    await stack?.close();
    await smtp.stop();
  });

  it('the management API answers 503 with Retry-After, then works again', async () => {
    const response = await call(stack.management.url, 'post', '/organization', app.apiKey, { name: `${TAG}-always` });
    expectProblem(response, {
      status: 503,
      code: 'service_unavailable',
      detail: 'The database is temporarily unavailable; try again shortly',
      instance: `${V2}/organization`,
    });
    expect(response.headers['retry-after']).toBe('1');
    await call(stack.management.url, 'post', '/organization', app.apiKey, { name: 'After the cut' }).expect(201);
  });

  it('authenticate_direct answers temporarily_unavailable with Retry-After, and nothing was accepted', async () => {
    const email = `${TAG}-always-${uniqueEmail()}`;
    const response = await authenticateDirect(stack.auth.url, app, {
      email,
      redirect_uri: REDIRECT_URI,
      state: 's',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    });
    expectOAuthError(response, 503, 'temporarily_unavailable');
    expect(response.headers['retry-after']).toBe('1');
    expect(await attemptsOf(app.applicationId, email)).toEqual([]);
  });

  it('authenticate_direct answers 200 when only the bookkeeping after queueing the e-mail lost its connection', async () => {
    const email = `${TAG}-bookkeeping-${uniqueEmail()}`;
    const response = await authenticateDirect(stack.auth.url, app, {
      email,
      redirect_uri: REDIRECT_URI,
      state: 's',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    });
    expect(response.status).toBe(200);
    const mail = await smtp.next(email);
    expect(mail.text).toContain(response.body.sentence);
    const [attempt] = await attemptsOf(app.applicationId, email);
    expect(attempt).toMatchObject({ id: response.body.loginAttemptId, status: 'pending' });
    expect((await query<{ cuts: string }>(`SELECT last_value AS cuts FROM ${TAG}_once`))[0].cuts).toBe('1');
  });

  it('the worker records an e-mail the SMTP server took as sent across a lost connection, and never sends it again', async () => {
    const jobs = watchJobs(mailQueueOf(stack.worker));
    try {
      const email = `${TAG}-sent-${uniqueEmail()}`;
      const response = await authenticateDirect(stack.auth.url, app, {
        email,
        redirect_uri: REDIRECT_URI,
        state: 's',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      });
      expect(response.status).toBe(200);
      await smtp.next(email);
      // A job failed after the send would be tried again, and the e-mail sent twice.
      expect(await jobs.settled(response.body.loginAttemptId)).toBe('completed');
      expect(smtp.pending(email)).toEqual([]);
      const [attempt] = await query<{ mail_sent_at: Date | null }>('SELECT mail_sent_at FROM login_attempt WHERE id = $1', [
        response.body.loginAttemptId,
      ]);
      expect(attempt.mail_sent_at).toBeInstanceOf(Date);
      expect((await query<{ cuts: string }>(`SELECT last_value AS cuts FROM ${TAG}_sent_once`))[0].cuts).toBe('2');
    } finally {
      jobs.stop();
    }
  });
});
