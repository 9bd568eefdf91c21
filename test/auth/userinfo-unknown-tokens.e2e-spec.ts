import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { RunningApp, startAuthApi, startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth, loginByLink } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';

const REDIRECT_URI = 'http://localhost:4000/callback';

/** userinfo is outside the shared per-IP limit, but an address sending tokens that never existed is cut off. */
describe('userinfo and unknown tokens', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  /** A second auth API on the same database whose GLOBAL_RATE_LIMIT is 3. */
  let strict: RunningApp;
  /** Like `strict`, behind a trusted proxy (client addresses from X-Forwarded-For). */
  let proxied: RunningApp;
  let app: ApplicationFixture;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    strict = await startAuthApi({ env: { GLOBAL_RATE_LIMIT: '3' } });
    proxied = await startAuthApi({ env: { GLOBAL_RATE_LIMIT: '3', TRUST_PROXY: 'loopback' } });
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['http://localhost:4000'] });
    app = await createApplication(stack.management.url, organization);
  });

  afterAll(async () => {
    await strict.close();
    await proxied.close();
    await stack.close();
    await smtp.stop();
  });

  const userInfo = (token: string) => request(strict.url).get('/api/v1/userinfo').set('Authorization', `Bearer ${token}`);

  it('a revoked token is refused every time without counting; made-up tokens are refused with 429 after GLOBAL_RATE_LIMIT a minute', async () => {
    const callback = await loginByLink(stack, smtp, app, { redirectUri: REDIRECT_URI });
    const tokens = await request(stack.auth.url)
      .post('/api/v1/verify')
      .set('Authorization', basicAuth(app))
      .type('form')
      .send({ code: callback.searchParams.get('code'), redirect_uri: REDIRECT_URI })
      .expect(200);
    await request(stack.auth.url)
      .post('/api/v1/revoke')
      .set('Authorization', basicAuth(app))
      .type('form')
      .send({ token: tokens.body.access_token })
      .expect(200);
    for (let i = 0; i < 5; i++) await userInfo(tokens.body.access_token).expect(401);

    const madeUp = () => randomBytes(32).toString('base64url');
    for (let i = 0; i < 3; i++) await userInfo(madeUp()).expect(401);
    const refused = await userInfo(madeUp()).expect(429);
    expect(refused.body.error).toBe('rate_limited');
    expect(refused.headers['retry-after']).toBe('60');
  });

  it('counts an IPv6 client by its /64: new addresses of one subscriber do not get a fresh budget', async () => {
    const from = (address: string) =>
      request(proxied.url)
        .get('/api/v1/userinfo')
        .set('Authorization', `Bearer ${randomBytes(32).toString('base64url')}`)
        .set('X-Forwarded-For', address);
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff:ffff:ffff:ffff']) await from(address).expect(401);
    expect((await from('2001:db8:1:2:abcd::9').expect(429)).body.error).toBe('rate_limited');
    await from('2001:db8:1:3::1').expect(401); // another /64
  });
});
