import { createDataSource, runMigrations } from '@sesame/entities';
import { startStack, Stack } from '../support/apps';
import { authenticateDirect } from '../support/direct-auth';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth, uniqueEmail } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';
import { ThrowawayDatabase } from '../support/throwaway-database';
import { exchangeWeb, userInfo, verify, WEB_REDIRECT_URI, webCode } from '../support/tokens';

/** Migrations that change how rows are written, on a database of this file: their rules hold across an upgrade and a rollback. */
describe('migrations', () => {
  const smtp = new SmtpSink();
  let database: ThrowawayDatabase;
  let stack: Stack;
  let web: ApplicationFixture;

  beforeAll(async () => {
    database = await ThrowawayDatabase.create();
    await smtp.start();
    stack = await startStack(smtp.url, { env: { DATABASE_URL: database.url } });
    const tenant = await createTenant(stack.management.url, 'pro');
    web = await createApplication(stack.management.url, await createOrganization(stack.management.url, tenant), { type: 'web' });
  });

  afterAll(async () => {
    await stack?.close();
    await smtp.stop();
    await database?.drop();
  });

  /** Rolls back the newest migrations until `name` is undone too. */
  async function undoThrough(name: string): Promise<void> {
    const dataSource = await createDataSource({ url: database.url, poolSize: 1 }).initialize();
    try {
      while ((await dataSource.query('SELECT 1 FROM migrations WHERE name = $1', [name])).length > 0)
        await dataSource.undoLastMigration({ transaction: 'each' });
    } finally {
      await dataSource.destroy();
    }
  }

  it('TokenOfCode keeps the link from a used code to its token down and up again: a replay after the upgrade revokes the token', async () => {
    const issued = await webCode(stack, smtp, web);
    const token = (await exchangeWeb(stack, web, issued)).access_token;
    const unrelated = (await exchangeWeb(stack, web, await webCode(stack, smtp, web))).access_token;

    await undoThrough('TokenOfCode1796600000000');
    const [before] = await database.query<{ linked: boolean }>(
      `SELECT t.code_hash = sha256($1::bytea) AS linked FROM access_token t WHERE t.hash = sha256($2::bytea)`,
      [issued.code, token],
    );
    expect(before.linked).toBe(true);

    expect(await runMigrations(database.url)).toContain('TokenOfCode1796600000000');
    const replay = await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(web)).expect(400);
    expect(replay.body.error_description).toBe('The code has already been used; tokens issued from it are revoked');
    await userInfo(stack.auth.url, token).expect(401);
    await userInfo(stack.auth.url, unrelated).expect(200);
  });

  it('OrderedLoginAttemptIds gives new login attempts version-7 ids in the order they were made', async () => {
    const start = async () => {
      const response = await authenticateDirect(stack.auth.url, web, {
        email: uniqueEmail('ordered'),
        redirect_uri: WEB_REDIRECT_URI,
        state: 's',
      }).expect(200);
      return response.body.loginAttemptId as string;
    };
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await start());

    expect(ids.map((id) => id[14])).toEqual(['7', '7', '7', '7', '7']);
    expect([...ids].sort()).toEqual(ids);
    const [first] = await database.query<{ created_at: Date }>('SELECT created_at FROM login_attempt WHERE id = $1', [ids[0]]);
    const embeddedMs = parseInt(ids[0].replace(/-/g, '').slice(0, 12), 16);
    expect(Math.abs(embeddedMs - first.created_at.getTime())).toBeLessThan(60_000);
  });
});
