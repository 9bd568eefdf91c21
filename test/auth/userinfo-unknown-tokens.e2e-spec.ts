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
  let app: ApplicationFixture;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    strict = await startAuthApi({ env: { GLOBAL_RATE_LIMIT: '3' } });
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['http://localhost:4000'] });
    app = await createApplication(stack.management.url, organization);
  });

  afterAll(async () => {
    await strict.close();
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
    await request(stack.auth.url).post('/api/v1/revoke').set('Authorization', basicAuth(app)).type('form').send({ token: tokens.body.access_token }).expect(200);
    for (let i = 0; i < 5; i++) await userInfo(tokens.body.access_token).expect(401);

    const madeUp = () => randomBytes(32).toString('base64url');
    for (let i = 0; i < 3; i++) await userInfo(madeUp()).expect(401);
    const refused = await userInfo(madeUp()).expect(429);
    expect(refused.body.error).toBe('rate_limited');
    expect(refused.headers['retry-after']).toBe('60');
  });
});
