import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { createWebApplication } from '../support/fixtures';
import { basicAuth } from '../support/login';
import { ThrowawayDatabase } from '../support/throwaway-database';
import { AppProcess, startAppProcess } from './support/app-process';

/** The tables a login request writes and reads by e-mail address. */
const LOCKED_TABLES = ['"user"', 'login_attempt', 'email_throttle'];

/**
 * A statement that fails in a running app — here cancelled by the statement timeout while the
 * test holds locks on the tables a login uses — is logged as a JSON line of the app logger,
 * naming the statement but never its parameters (the e-mail address of the login).
 */
describe('a failed SQL statement in the log', () => {
  let database: ThrowawayDatabase;
  let management: AppProcess;
  let auth: AppProcess;
  let locker: Client;

  beforeAll(async () => {
    database = await ThrowawayDatabase.create();
    const env = { DATABASE_URL: database.url, LOG_LEVEL: 'info', DATABASE_STATEMENT_TIMEOUT_MS: '200' };
    [management, auth] = await Promise.all([startAppProcess('management-api', env), startAppProcess('auth-api', env)]);
    locker = new Client({ connectionString: database.url });
    await locker.connect();
  }, 60_000);
  afterAll(async () => {
    await locker?.end();
    await Promise.all([management, auth].filter(Boolean).map((app) => app.stop()));
    await database?.drop();
  }, 30_000);

  it('is a JSON warning with the statement and without the e-mail address', async () => {
    const app = await createWebApplication(management.url);
    const email = `ops-sql-log-${randomBytes(4).toString('hex')}@example.com`;
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${LOCKED_TABLES.join(', ')} IN ACCESS EXCLUSIVE MODE`);
    try {
      const response = await request(auth.url)
        .post('/api/v1/authenticate_direct')
        .set('Authorization', basicAuth(app))
        .send({ email, redirect_uri: 'http://localhost:4000/callback', state: 's' });
      expect(response.status).toBeGreaterThanOrEqual(500);
    } finally {
      await locker.query('ROLLBACK');
    }
    const failure = await auth.waitForLog(
      (line) => String(line.msg).startsWith('Query failed: canceling statement due to statement timeout'),
      10_000,
      'the failed statement',
    );
    expect(failure).toMatchObject({ level: 'warn', context: 'Database', app: 'auth-api' });
    expect(auth.output.lines.filter((line) => line.includes(email))).toEqual([]);
  }, 30_000);
});
