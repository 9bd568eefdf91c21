import { getQueueToken } from '@nestjs/bull';
import { ManualClock } from '@sesame/common';
import { MAINTENANCE_QUEUE } from '@sesame/queue';
import type { Queue } from 'bull';
import { MaintenanceReport, MaintenanceService } from '../../apps/mail-worker/src/maintenance/maintenance.service';
import { RunningApp, startMailWorker, startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { SmtpSink } from '../support/smtp-sink';
import { ThrowawayDatabase } from '../support/throwaway-database';
import { exchangeWeb, userInfo, verify, webCode } from '../support/tokens';
import { basicAuth } from '../support/login';
import { scrape, value } from './support/metrics';

const DAY = 24 * 3600;
const MINUTE = 60;
const BATCH = 7;

/** Every DELETE statement on the retained tables, with how many rows it removed (a test-only trigger). */
const DELETE_LOG = `
  CREATE TABLE delete_log (id serial PRIMARY KEY, tbl text NOT NULL, n integer NOT NULL);
  CREATE FUNCTION log_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO delete_log (tbl, n) SELECT TG_TABLE_NAME, count(*) FROM gone; RETURN NULL; END $$;
  ${['authorization_code', 'access_token', 'login_attempt', 'email_throttle', 'audit_event', 'webhook_event']
    .map(
      (table) =>
        `CREATE TRIGGER ${table}_deletes AFTER DELETE ON ${table} REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION log_delete();`,
    )
    .join('\n')}`;

/**
 * The maintenance job of mail-worker on a database of this file (it deletes across whole tables),
 * with a ManualClock shared by the apps: rows are placed a minute on either side of each retention
 * limit, and the job runs through the service as Bull would run it, or on its Bull schedule.
 */
describe('maintenance job', () => {
  const smtp = new SmtpSink();
  const clock = new ManualClock(new Date('2031-03-01T12:00:00.000Z'));
  let database: ThrowawayDatabase;
  let env: Record<string, string>;
  let stack: Stack;
  let web: ApplicationFixture;
  let userId: string;

  const maintenanceOf = (app: RunningApp) => app.app.get(MaintenanceService);
  const at = (offsetSeconds: number) => new Date(clock.now().getTime() + offsetSeconds * 1000);

  beforeAll(async () => {
    database = await ThrowawayDatabase.create();
    await database.query(DELETE_LOG);
    await smtp.start();
    env = { DATABASE_URL: database.url, MAINTENANCE_BATCH_SIZE: String(BATCH), MAIL_SWEEP_INTERVAL_SECONDS: '3600' };
    stack = await startStack(smtp.url, { clock, env });
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant);
    web = await createApplication(stack.management.url, organization, { type: 'web' });
    const [user] = await database.query<{ id: string }>(
      `INSERT INTO "user" (organization_id, email) VALUES ($1, 'kept@example.com') RETURNING id`,
      [web.organizationId],
    );
    userId = user.id;
  });

  afterAll(async () => {
    await stack?.close();
    await smtp.stop();
    await database?.drop();
  });

  /** `count` rows of a table; the template selects from `p` (organization, application, user, tenant, time t, label) and `g` (1…count). */
  async function seed(sql: string, count: number, time: Date, label: string): Promise<void> {
    const [head, select] = sql.split(/(?=SELECT)/);
    await database.query(
      `${head} WITH p AS (SELECT $1::uuid AS organization, $2::uuid AS application, $3::uuid AS "user", $4::uuid AS tenant, $5::timestamptz AS t, $6::text AS label)
       ${select} FROM p, generate_series(1, ${count}) g`,
      [web.organizationId, web.applicationId, userId, web.tenantId, time, label],
    );
  }
  const codes = (used: boolean) =>
    `INSERT INTO authorization_code (hash, application_id, user_id, redirect_uri, auth_time, expires_at, used_at, created_at)
     SELECT sha256((label || g)::bytea), application, "user", 'https://x.example/cb', t, t, ${used ? 't' : 'NULL'}, t`;
  const tokens = (revoked: boolean) =>
    `INSERT INTO access_token (hash, application_id, user_id, organization_id, expires_at, revoked_at, created_at)
     SELECT sha256((label || g)::bytea), application, "user", organization, ${revoked ? `t + interval '10 days', t` : 't, NULL'}, t`;
  const attempts = `INSERT INTO login_attempt (organization_id, application_id, email, token_hash, sentence, state, redirect_uri, status, expires_at, created_at)
     SELECT organization, application, label || g || '@example.com', sha256((label || g)::bytea), label || g, 's', 'https://x.example/cb', 'expired', t, t`;
  const throttles = `INSERT INTO email_throttle (organization_id, email, attempts, allowed_date, last_attempt_at) SELECT organization, label || g || '@example.com', 3, t, t`;
  const events = `INSERT INTO audit_event (tenant_id, actor_type, action, target_type, created_at) SELECT tenant, 'platform', label || g, 'tenant', t`;
  const webhookEvents = `INSERT INTO webhook_event (tenant_id, type, payload, created_at, dispatched_at) SELECT tenant, label || g, '{}', t, t`;

  async function remaining(table: string, column: string, label: string): Promise<number> {
    const [row] = await database.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${column} LIKE $1`, [`${label}%`]);
    return Number(row.n);
  }

  it('deletes every kind of row past its retention in batches of MAINTENANCE_BATCH_SIZE, and nothing a minute younger', async () => {
    // Codes: unused, a day after expiry; used, a day after their tokens' 30-day lifetime.
    await seed(codes(false), 10, at(-DAY - MINUTE), 'code-unused-old');
    await seed(codes(false), 3, at(-DAY + MINUTE), 'code-unused-new');
    await seed(codes(true), 4, at(-31 * DAY - MINUTE), 'code-used-old');
    await seed(codes(true), 2, at(-31 * DAY + MINUTE), 'code-used-new');
    // Tokens: 7 days after expiry or revocation.
    await seed(tokens(false), 15, at(-7 * DAY - MINUTE), 'token-expired-old');
    await seed(tokens(false), 2, at(-7 * DAY + MINUTE), 'token-expired-new');
    await seed(tokens(true), 9, at(-7 * DAY - MINUTE), 'token-revoked-old');
    await seed(tokens(true), 2, at(-7 * DAY + MINUTE), 'token-revoked-new');
    // Login activity 30 days, throttle rows idle a day, audit events 365 days.
    await seed(attempts, 12, at(-30 * DAY - MINUTE), 'attempt-old');
    await seed(attempts, 2, at(-30 * DAY + MINUTE), 'attempt-new');
    await seed(throttles, 8, at(-DAY - MINUTE), 'throttle-old');
    await seed(throttles, 2, at(-DAY + MINUTE), 'throttle-new');
    await seed(events, 20, at(-365 * DAY - MINUTE), 'event-old');
    await seed(events, 2, at(-365 * DAY + MINUTE), 'event-new');
    // Webhook events (their deliveries cascade) 30 days; the fixture's own (its tenant's first key, made at the real time) goes first.
    await database.query('DELETE FROM webhook_event');
    await seed(webhookEvents, 9, at(-30 * DAY - MINUTE), 'hook-old');
    await seed(webhookEvents, 2, at(-30 * DAY + MINUTE), 'hook-new');
    await database.query('TRUNCATE delete_log');
    const before = await scrape(stack.worker.url);

    const report = await maintenanceOf(stack.worker).run();

    expect(report?.removed).toEqual({
      authorization_code: 14,
      access_token: 24,
      login_attempt: 12,
      mail_job: 0,
      email_throttle: 8,
      audit_event: 20,
      webhook_event: 9,
      passkey_challenge: 0,
    });
    const statements = await database.query<{ tbl: string; n: number }>('SELECT tbl, n FROM delete_log ORDER BY id');
    const sizes = (table: string) => statements.filter((s) => s.tbl === table).map((s) => s.n);
    // Each statement removes at most a batch; a short batch ends the kind of row.
    expect(sizes('authorization_code')).toEqual([7, 3, 4]);
    expect(sizes('access_token')).toEqual([7, 7, 1, 7, 2]);
    expect(sizes('login_attempt')).toEqual([7, 5]);
    expect(sizes('email_throttle')).toEqual([7, 1]);
    expect(sizes('audit_event')).toEqual([7, 7, 6]);
    expect(sizes('webhook_event')).toEqual([7, 2]);

    const codeLabel = async (label: string) =>
      (
        await database.query<{ n: string }>(
          `SELECT count(*) AS n FROM authorization_code WHERE hash IN (SELECT sha256(($1 || g)::bytea) FROM generate_series(1, 20) g)`,
          [label],
        )
      )[0].n;
    const tokenLabel = async (label: string) =>
      (
        await database.query<{ n: string }>(
          `SELECT count(*) AS n FROM access_token WHERE hash IN (SELECT sha256(($1 || g)::bytea) FROM generate_series(1, 20) g)`,
          [label],
        )
      )[0].n;
    expect([
      await codeLabel('code-unused-old'),
      await codeLabel('code-unused-new'),
      await codeLabel('code-used-old'),
      await codeLabel('code-used-new'),
    ]).toEqual(['0', '3', '0', '2']);
    expect([
      await tokenLabel('token-expired-old'),
      await tokenLabel('token-expired-new'),
      await tokenLabel('token-revoked-old'),
      await tokenLabel('token-revoked-new'),
    ]).toEqual(['0', '2', '0', '2']);
    expect([
      await remaining('login_attempt', 'sentence', 'attempt-old'),
      await remaining('login_attempt', 'sentence', 'attempt-new'),
    ]).toEqual([0, 2]);
    expect([
      await remaining('email_throttle', 'email', 'throttle-old'),
      await remaining('email_throttle', 'email', 'throttle-new'),
    ]).toEqual([0, 2]);
    expect([await remaining('audit_event', 'action', 'event-old'), await remaining('audit_event', 'action', 'event-new')]).toEqual([0, 2]);
    expect([await remaining('webhook_event', 'type', 'hook-old'), await remaining('webhook_event', 'type', 'hook-new')]).toEqual([0, 2]);

    const after = await scrape(stack.worker.url);
    const deleted = (table: string) =>
      value(after, `sesame_maintenance_rows_deleted_total{table="${table}"}`) -
      value(before, `sesame_maintenance_rows_deleted_total{table="${table}"}`);
    expect([
      deleted('authorization_code'),
      deleted('access_token'),
      deleted('login_attempt'),
      deleted('email_throttle'),
      deleted('audit_event'),
    ]).toEqual([14, 24, 12, 8, 20]);
    expect(
      value(after, 'sesame_maintenance_runs_total{outcome="completed"}') -
        value(before, 'sesame_maintenance_runs_total{outcome="completed"}'),
    ).toBe(1);
    expect(value(after, 'sesame_maintenance_run_duration_seconds_count')).toBeGreaterThan(
      value(before, 'sesame_maintenance_run_duration_seconds_count'),
    );

    // The minute passes: the younger rows are due now.
    clock.advance(2 * MINUTE);
    const next = await maintenanceOf(stack.worker).run();
    expect(next?.removed).toEqual({
      authorization_code: 5,
      access_token: 4,
      login_attempt: 2,
      mail_job: 0,
      email_throttle: 2,
      audit_event: 2,
      webhook_event: 2,
      passkey_challenge: 0,
    });
  });

  it('keeps a used code while a token issued from it lives, however old the code', async () => {
    // A token that outlives the configured lifetime (issued before ACCESS_TOKEN_TTL_SECONDS was lowered).
    await seed(codes(true), 1, at(-90 * DAY), 'code-long-lived-token');
    await database.query(
      `INSERT INTO access_token (hash, application_id, user_id, organization_id, expires_at, created_at)
       VALUES (sha256('long-lived-token'::bytea), $1, $2, $3, $4, $5)`,
      [web.applicationId, userId, web.organizationId, at(DAY), at(-90 * DAY)],
    );
    await database.query(
      `UPDATE authorization_code SET access_token_hash = sha256('long-lived-token'::bytea) WHERE hash = sha256('code-long-lived-token1'::bytea)`,
    );

    expect((await maintenanceOf(stack.worker).run())?.removed.authorization_code).toBe(0);
    expect(await database.query(`SELECT 1 FROM authorization_code WHERE hash = sha256('code-long-lived-token1'::bytea)`)).toHaveLength(1);

    clock.advance(DAY + MINUTE); // the token has expired: the code can no longer revoke anything
    expect((await maintenanceOf(stack.worker).run())?.removed.authorization_code).toBe(1);
  });

  it('a code replayed 29 days after its use still revokes its token; a month later code and token are gone', async () => {
    const issued = await webCode(stack, smtp, web);
    const token = (await exchangeWeb(stack, web, issued)).access_token;
    clock.advance(29 * DAY);
    await maintenanceOf(stack.worker).run();

    await userInfo(stack.auth.url, token).expect(200);
    const replay = await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(web)).expect(400);
    expect(replay.body.error_description).toBe('The code has already been used; tokens issued from it are revoked');
    await userInfo(stack.auth.url, token).expect(401);

    // Revoked now: the token goes 7 days later, the code once no token of it lives, a day after the 30-day lifetime.
    clock.advance(7 * DAY + MINUTE);
    const report = await maintenanceOf(stack.worker).run();
    expect(report?.removed).toMatchObject({ access_token: 1, authorization_code: 1 });
    const again = await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(web)).expect(400);
    expect(again.body.error).toBe('invalid_grant');
  });

  it('runs on one instance at a time: of two workers started together, one runs and the other skips', async () => {
    const second = await startMailWorker({ clock, env });
    try {
      await seed(events, 50, at(-400 * DAY), 'event-two-workers');
      const before = await scrape(second.url);

      const reports = await Promise.all([maintenanceOf(stack.worker).run(), maintenanceOf(second).run()]);

      const ran = reports.filter((report): report is MaintenanceReport => report !== null);
      expect(ran).toHaveLength(1);
      expect(ran[0].removed.audit_event).toBe(50);
      expect(await remaining('audit_event', 'action', 'event-two-workers')).toBe(0);
      // The lease is released at the end: the next run goes ahead.
      await seed(events, 3, at(-400 * DAY), 'event-after');
      expect((await maintenanceOf(second).run())?.removed.audit_event).toBe(3);
      const after = await scrape(second.url);
      const skippedHere =
        value(after, 'sesame_maintenance_runs_total{outcome="skipped"}') -
        value(before, 'sesame_maintenance_runs_total{outcome="skipped"}');
      expect(skippedHere).toBe(reports[1] === null ? 1 : 0);
    } finally {
      await second.close();
    }
  });

  describe('on its Bull schedule (MAINTENANCE_INTERVAL_SECONDS=1, the system clock)', () => {
    it('the workers share one repeatable job, and a repetition deletes what is due', async () => {
      await database.query(
        `INSERT INTO audit_event (tenant_id, actor_type, action, target_type, created_at)
         SELECT $1, 'platform', 'event-scheduled' || g, 'tenant', now() - interval '400 days' FROM generate_series(1, 9) g`,
        [web.tenantId],
      );
      const scheduled = { ...env, MAINTENANCE_INTERVAL_SECONDS: '1' };
      const workers = [await startMailWorker({ env: scheduled }), await startMailWorker({ env: scheduled })];
      try {
        // The file's first worker takes repetitions too: it consumes the same queue (its own schedule is off).
        const completed = new Promise<MaintenanceReport>((resolve, reject) => {
          for (const worker of [...workers, stack.worker]) {
            const queue = worker.app.get<Queue>(getQueueToken(MAINTENANCE_QUEUE));
            queue.on('completed', (_job, report: MaintenanceReport | null) => {
              if (report && report.removed.audit_event > 0) resolve(report);
            });
            queue.on('failed', (_job, error: Error) => reject(error));
          }
        });
        expect((await completed).removed.audit_event).toBe(9);
        expect(await remaining('audit_event', 'action', 'event-scheduled')).toBe(0);
        const repeatable = await workers[0].app.get<Queue>(getQueueToken(MAINTENANCE_QUEUE)).getRepeatableJobs();
        expect(repeatable.map((job) => [job.name, Number(job.every)])).toEqual([['purge', 1000]]);
      } finally {
        await Promise.all(workers.map((worker) => worker.close()));
      }
    });
  });
});
