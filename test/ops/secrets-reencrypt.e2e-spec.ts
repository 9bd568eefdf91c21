import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { runMigrations } from '@sesame/entities';
import { startAuthApi, startMailWorker, startManagementApi, startPublicAuthApi } from '../support/apps';
import { FILE_REDIS_PREFIX } from '../support/config';
import { ApplicationFixture, createWebApplication } from '../support/fixtures';
import { linkIn, SmtpSink } from '../support/smtp-sink';
import { ADMIN_DATABASE_URL, databaseUrlFor, runId } from '../support/test-env';
import { DockerCommandProcess } from './support/app-process';

const OLD_KEY = randomBytes(32).toString('hex');
const NEW_KEY = randomBytes(32).toString('base64');
const CLI = ['node', 'dist/apps/auth-api/src/cli.js', 'secrets:reencrypt'];
const SEALED = `SELECT 'application' AS t, client_secret_encrypted AS v FROM application WHERE client_secret_encrypted IS NOT NULL
  UNION ALL SELECT 'signing_key', private_key_encrypted FROM signing_key
  UNION ALL SELECT 'login_attempt', link_token_encrypted FROM login_attempt WHERE link_token_encrypted IS NOT NULL ORDER BY 1, 2`;

/** `npm run cli:auth -- secrets:reencrypt` on a database of its own (the run's is shared with files running alongside). */
describe('secrets:reencrypt (SECRETS_KEY rotation)', () => {
  const database = `sesame_test_rekey_${runId()}`;
  const env = { DATABASE_URL: databaseUrlFor(database), REDIS_PREFIX: `${FILE_REDIS_PREFIX}-rekey` };
  const smtp = new SmtpSink();
  const email = `rekey-${randomBytes(4).toString('hex')}@example.com`;
  const verifier = randomBytes(32).toString('base64url');
  let admin: Client;
  let db: Client;
  let app: ApplicationFixture;
  let kid: string;

  const run = (keys: Record<string, string>) => {
    const cli = new DockerCommandProcess(CLI, { ...process.env, ...env, ...keys });
    return cli.exited.then((exit) => ({ ...exit, output: cli.output.lines.join('\n') }));
  };
  const sealed = async () => (await db.query(SEALED)).rows as { t: string; v: string }[];

  beforeAll(async () => {
    admin = new Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    await runMigrations(env.DATABASE_URL);
    db = new Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    await smtp.start();

    // Data sealed with the old key: a client secret, a signing key, a pending login link (no worker runs yet).
    const keys = { ...env, SECRETS_KEY: OLD_KEY };
    const management = await startManagementApi({ env: keys });
    const auth = await startAuthApi({ env: keys });
    try {
      app = await createWebApplication(management.url);
      kid = (await request(auth.url).get('/api/v1/.well-known/jwks.json').expect(200)).body.keys[0].kid;
      await request(auth.url)
        .post('/api/v1/authenticate_direct')
        .auth(app.clientId, app.clientSecret!)
        .send({
          email,
          redirect_uri: 'http://localhost:4000/callback',
          state: 's',
          code_challenge: createHash('sha256').update(verifier).digest('base64url'),
          code_challenge_method: 'S256',
        })
        .expect(200);
    } finally {
      await auth.close();
      await management.close();
    }
  }, 60_000);

  afterAll(async () => {
    await smtp.stop();
    await db?.end();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

  it('refuses to run without OLD_SECRETS_KEY', async () => {
    const result = await run({ SECRETS_KEY: NEW_KEY });
    expect(result.code).toBe(1);
    expect(result.output).toContain('OLD_SECRETS_KEY must be set');
  });

  it('with a wrong OLD_SECRETS_KEY it fails and changes nothing (one transaction)', async () => {
    const before = await sealed();
    expect(before.map((row) => row.t)).toEqual(['application', 'login_attempt', 'signing_key']);
    const result = await run({ SECRETS_KEY: NEW_KEY, OLD_SECRETS_KEY: randomBytes(32).toString('hex') });
    expect(result.code).toBe(1);
    expect(result.output).toContain('opens with neither OLD_SECRETS_KEY nor SECRETS_KEY; nothing was changed');
    expect(await sealed()).toEqual(before);
  });

  it('re-encrypts client secrets, signing keys and pending link tokens; a second run finds them all current', async () => {
    const before = await sealed();
    const first = await run({ SECRETS_KEY: NEW_KEY, OLD_SECRETS_KEY: OLD_KEY });
    expect([first.code, first.output]).toEqual([0, expect.stringContaining('application: 1 re-encrypted, 0 already under SECRETS_KEY')]);
    expect(first.output).toContain('signing_key: 1 re-encrypted');
    expect(first.output).toContain('login_attempt: 1 re-encrypted');
    const after = await sealed();
    expect(after.map((row) => row.t)).toEqual(before.map((row) => row.t));
    for (const [index, row] of after.entries()) expect(row.v).not.toBe(before[index].v);

    const second = await run({ SECRETS_KEY: NEW_KEY, OLD_SECRETS_KEY: OLD_KEY });
    expect([second.code, second.output]).toEqual([0, expect.stringContaining('application: 0 re-encrypted, 1 already under SECRETS_KEY')]);
    expect(await sealed()).toEqual(after);
  });

  it('the apps work with the new key: the same client secret, the pending e-mail sent, the login completed with the same signing key', async () => {
    const keys = { ...env, SECRETS_KEY: NEW_KEY, SMTP_URL: smtp.url };
    const management = await startManagementApi({ env: keys });
    const { auth, env: shared } = await startPublicAuthApi({ env: keys });
    const worker = await startMailWorker({ env: shared });
    try {
      const shown = await request(management.url)
        .get(`/api/v2/organization/${app.organizationId}/application/${app.applicationId}?include=secret`)
        .set('Authorization', `Bearer ${app.apiKey}`)
        .expect(200);
      expect(shown.body.clientSecret).toBe(app.clientSecret);

      const token = new URL(linkIn(await smtp.next(email))).searchParams.get('token')!;
      const used = await request(auth.url).post('/api/v1/login_link').type('form').send({ token }).expect(303);
      const code = new URL(used.headers.location).searchParams.get('code')!;
      await request(auth.url)
        .post('/api/v1/verify')
        .auth(app.clientId, app.clientSecret!)
        .type('form')
        .send({ code, redirect_uri: 'http://localhost:4000/callback', code_verifier: verifier })
        .expect(200);
      expect(
        (await request(auth.url).get('/api/v1/.well-known/jwks.json').expect(200)).body.keys.map((key: { kid: string }) => key.kid),
      ).toEqual([kid]);
    } finally {
      await worker.close();
      await auth.close();
      await management.close();
    }
  }, 30_000);
});
