import { ManualClock } from '@sesame/common';
import { startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';
import { exchangeWeb, openIdToken, userInfo, verify, webCode } from '../support/tokens';

/** The lifetimes come from configuration: CODE_TTL_SECONDS, ACCESS_TOKEN_TTL_SECONDS, ID_TOKEN_TTL_SECONDS. */
describe('code and token lifetimes from configuration', () => {
  const smtp = new SmtpSink();
  const clock = new ManualClock(new Date('2033-01-10T12:00:00.000Z'));
  let stack: Stack;
  let web: ApplicationFixture;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url, {
      clock,
      env: { CODE_TTL_SECONDS: '60', ACCESS_TOKEN_TTL_SECONDS: '120', ID_TOKEN_TTL_SECONDS: '300', MAIL_SWEEP_INTERVAL_SECONDS: '3600' },
    });
    const tenant = await createTenant(stack.management.url, 'enterprise');
    web = await createApplication(stack.management.url, await createOrganization(stack.management.url, tenant), { type: 'web' });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  it('CODE_TTL_SECONDS: the code works for 59 s, not 60', async () => {
    const early = await webCode(stack, smtp, web);
    const late = await webCode(stack, smtp, web);
    clock.advance(59);
    await exchangeWeb(stack, web, early);
    clock.advance(1);
    const response = await verify(stack.auth.url, { code: late.code, redirect_uri: late.redirectUri }, basicAuth(web)).expect(400);
    expect(response.body.error).toBe('invalid_grant');
  });

  it('ACCESS_TOKEN_TTL_SECONDS and ID_TOKEN_TTL_SECONDS shape the token response', async () => {
    const now = clock.now();
    const tokens = await exchangeWeb(stack, web, await webCode(stack, smtp, web));
    expect(tokens.expires_in).toBe(120);
    expect(tokens.expires_at).toBe(new Date(now.getTime() + 120_000).toISOString());
    const { payload } = await openIdToken(stack, web, tokens.id_token, { currentDate: now });
    expect(payload.exp! - payload.iat!).toBe(300);

    clock.advance(119);
    await userInfo(stack.auth.url, tokens.access_token).expect(200);
    clock.advance(1);
    await userInfo(stack.auth.url, tokens.access_token).expect(401);
  });
});
