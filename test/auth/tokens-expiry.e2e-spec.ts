import { ManualClock } from '@sesame/common';
import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';
import { exchangeWeb, openIdToken, userInfo, verify, webCode } from '../support/tokens';

/**
 * Lifetimes with the defaults: codes 5 minutes, access tokens 30 days, id_tokens 1 hour. Time is
 * a ManualClock shared by the three apps; nothing sleeps. (The mail sweeper works on the whole
 * shared database, so with a clock far from real time it must not run here.)
 */
describe('code and token lifetimes (defaults)', () => {
  const smtp = new SmtpSink();
  const clock = new ManualClock(new Date('2032-05-04T08:00:00.000Z'));
  let stack: Stack;
  let web: ApplicationFixture;
  const DAY = 24 * 3600;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url, { clock, env: { MAIL_SWEEP_INTERVAL_SECONDS: '3600' } });
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant);
    web = await createApplication(stack.management.url, organization, { type: 'web' });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  const introspect = (token: string) =>
    request(stack.auth.url).post('/api/v1/introspect').set('Authorization', basicAuth(web)).type('form').send({ token }).expect(200);

  it('a code still works 4:59 after it was issued', async () => {
    const issued = await webCode(stack, smtp, web);
    clock.advance(299);
    await exchangeWeb(stack, web, issued);
  });

  it('a code is invalid_grant 5 minutes after it was issued', async () => {
    const issued = await webCode(stack, smtp, web);
    clock.advance(300);
    const response = await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(web)).expect(400);
    expect(response.body.error).toBe('invalid_grant');
  });

  it('an access token lives 30 days to the second: expires_in, expires_at, userinfo, introspection', async () => {
    const issued = await webCode(stack, smtp, web);
    const exchangedAt = clock.now();
    const tokens = await exchangeWeb(stack, web, issued);
    expect(tokens.expires_in).toBe(30 * DAY);
    expect(tokens.expires_at).toBe(new Date(exchangedAt.getTime() + 30 * DAY * 1000).toISOString());
    expect((await introspect(tokens.access_token)).body).toMatchObject({
      active: true,
      iat: exchangedAt.getTime() / 1000,
      exp: exchangedAt.getTime() / 1000 + 30 * DAY,
    });

    clock.advance(30 * DAY - 1);
    await userInfo(stack.auth.url, tokens.access_token).expect(200);

    clock.advance(1);
    const expired = await userInfo(stack.auth.url, tokens.access_token).expect(401);
    expect(expired.headers['www-authenticate']).toMatch(/^Bearer realm="sesame", error="invalid_token"/);
    expect((await introspect(tokens.access_token)).body).toEqual({ active: false });
  });

  it('the id_token is stamped by the clock: iat at the exchange, exp an hour later, auth_time when the link was used', async () => {
    const issued = await webCode(stack, smtp, web); // the link is used now
    const usedAt = clock.now().getTime() / 1000;
    clock.advance(120);
    const tokens = await exchangeWeb(stack, web, issued);
    const { payload } = await openIdToken(stack, web, tokens.id_token, { currentDate: clock.now() });
    expect(payload.auth_time).toBe(usedAt);
    expect(payload.iat).toBe(usedAt + 120);
    expect(payload.exp).toBe(usedAt + 120 + 3600);
    clock.advance(3600);
    await expect(openIdToken(stack, web, tokens.id_token, { currentDate: clock.now() })).rejects.toThrow(/exp/);
    // The access token outlives the id_token.
    await userInfo(stack.auth.url, tokens.access_token).expect(200);
  });
});
