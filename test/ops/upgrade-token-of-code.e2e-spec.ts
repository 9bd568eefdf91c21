import { createDataSource, runMigrations } from '@sesame/entities';
import { startStack, Stack } from '../support/apps';
import { createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';
import { ThrowawayDatabase } from '../support/throwaway-database';
import { exchangeWeb, userInfo, verify, webCode } from '../support/tokens';

/**
 * Migration TokenOfCode moved the link between a used code and its token from the token
 * (access_token.code_hash) to the code (authorization_code.access_token_hash). A token issued
 * before the upgrade must still be revoked when its code is replayed after it, and after a
 * rollback too.
 */
describe('upgrade: the replay rule across migration TokenOfCode', () => {
  const smtp = new SmtpSink();
  let database: ThrowawayDatabase;
  let stack: Stack;

  beforeAll(async () => {
    database = await ThrowawayDatabase.create();
    await smtp.start();
    stack = await startStack(smtp.url, { env: { DATABASE_URL: database.url } });
  });

  afterAll(async () => {
    await stack?.close();
    await smtp.stop();
    await database?.drop();
  });

  async function undoLastMigration(): Promise<void> {
    const dataSource = await createDataSource({ url: database.url, poolSize: 1 }).initialize();
    try {
      await dataSource.undoLastMigration({ transaction: 'each' });
    } finally {
      await dataSource.destroy();
    }
  }

  it('keeps the link from a code to its token down and up again, so a replay after the upgrade revokes the token', async () => {
    const tenant = await createTenant(stack.management.url, 'pro');
    const web = await createApplication(stack.management.url, await createOrganization(stack.management.url, tenant), { type: 'web' });
    const issued = await webCode(stack, smtp, web);
    const token = (await exchangeWeb(stack, web, issued)).access_token;
    const unrelated = (await exchangeWeb(stack, web, await webCode(stack, smtp, web))).access_token;

    await undoLastMigration();
    const [before] = await database.query<{ linked: boolean }>(
      `SELECT t.code_hash = sha256($1::bytea) AS linked FROM access_token t WHERE t.hash = sha256($2::bytea)`,
      [issued.code, token],
    );
    expect(before.linked).toBe(true);

    expect(await runMigrations(database.url)).toEqual(['TokenOfCode1796600000000']);
    const replay = await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(web)).expect(400);
    expect(replay.body.error_description).toBe('The code has already been used; tokens issued from it are revoked');
    await userInfo(stack.auth.url, token).expect(401);
    await userInfo(stack.auth.url, unrelated).expect(200);
  });
});
