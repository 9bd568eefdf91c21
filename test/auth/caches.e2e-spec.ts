import { CacheInvalidation, CacheInvalidationBus, ManualClock } from '@sesame/common';
import request from 'supertest';
import { startManagementApi, startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { authenticateDirect, tokenIn, useLink } from '../support/direct-auth';
import { basicAuth, loginByLink, pkcePair, uniqueEmail } from '../support/login';
import { call } from '../support/management';
import { codeIn, SmtpSink } from '../support/smtp-sink';
import { askedCookies, hiddenFields, openAuthorize, submitEmail } from '../support/hosted-login';

const REDIRECT_URI = 'http://localhost:4000/callback';
const CACHE_ENV = { ACCESS_TOKEN_CACHE_SECONDS: '5', CLIENT_CACHE_SECONDS: '5', MAIL_SWEEP_INTERVAL_SECONDS: '3600' };

/** The short-lived caches on the hot paths, with their production defaults (5 s), on a manual clock; the cache time is the fallback when an invalidation is lost. */
describe('userinfo and client caches', () => {
  const smtp = new SmtpSink();
  const clock = new ManualClock();
  let stack: Stack;
  let app: ApplicationFixture;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url, {
      clock,
      env: CACHE_ENV,
    });
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['http://localhost:4000'] });
    app = await createApplication(stack.management.url, organization, { type: 'web' });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  async function tokenFor(email: string): Promise<{ accessToken: string; userId: string }> {
    clock.advance(3600); // past any earlier allowedDate
    const callback = await loginByLink(stack, smtp, app, { email, redirectUri: REDIRECT_URI });
    const tokens = await request(stack.auth.url)
      .post('/api/v1/verify')
      .set('Authorization', basicAuth(app))
      .type('form')
      .send({ code: callback.searchParams.get('code'), redirect_uri: REDIRECT_URI })
      .expect(200);
    const user = await userInfo(tokens.body.access_token).expect(200);
    return { accessToken: tokens.body.access_token, userId: user.body.sub };
  }

  const userInfo = (token: string) => request(stack.auth.url).get('/api/v1/userinfo').set('Authorization', `Bearer ${token}`);

  it('a revoked token stops working at once on the instance that revoked it', async () => {
    const { accessToken } = await tokenFor(uniqueEmail('revoke'));
    await request(stack.auth.url)
      .post('/api/v1/revoke')
      .set('Authorization', basicAuth(app))
      .type('form')
      .send({ token: accessToken })
      .expect(200);
    await userInfo(accessToken).expect(401);
  });

  it('a blocked user keeps a cached answer for at most the cache time, then gets 401', async () => {
    const { accessToken, userId } = await tokenFor(uniqueEmail('block'));
    await request(stack.management.url)
      .post(`/api/v2/organization/${app.organizationId}/user/${userId}`)
      .set('Authorization', `Bearer ${app.apiKey}`)
      .send({ blocked: true })
      .expect(200);
    clock.advance(4.9);
    await userInfo(accessToken).expect(200);
    clock.advance(0.2);
    await userInfo(accessToken).expect(401);
  });

  const status = (secret: string) =>
    request(stack.auth.url)
      .get('/api/v1/login_attempt/00000000-0000-4000-8000-000000000000')
      .set('Authorization', basicAuth({ clientId: app.clientId, clientSecret: secret }));
  const rotate = (managementUrl: string) =>
    request(managementUrl)
      .post(`/api/v2/organization/${app.organizationId}/application/${app.applicationId}/rotate_secret`)
      .set('Authorization', `Bearer ${app.apiKey}`)
      .send({ overlapSeconds: 0 })
      .expect(200);

  it('a secret rotated without overlap is refused at once: the invalidation reaches the cache', async () => {
    await status(app.clientSecret!).expect(404); // looked up, and cached
    const reached = new Promise<void>((resolve) =>
      stack.auth.app
        .get(CacheInvalidationBus)
        .subscribe((message) => message.kind === 'application' && message.applicationId === app.applicationId && resolve()),
    );
    const rotated = await rotate(stack.management.url);
    await reached;
    await status(app.clientSecret!).expect(401);
    await status(rotated.body.clientSecret).expect(404);
    app = { ...app, clientSecret: rotated.body.clientSecret };
  });

  it('when the invalidation is lost (as while Redis is away), a rotated secret works for at most the cache time', async () => {
    // A management API publishing under another REDIS_PREFIX: its message never reaches this auth API.
    const elsewhere = await startManagementApi({
      clock,
      env: { ...CACHE_ENV, REDIS_PREFIX: `${stack.auth.config.redis.prefix}-elsewhere` },
    });
    try {
      await status(app.clientSecret!).expect(404); // looked up, and cached
      const rotated = await rotate(elsewhere.url);
      clock.advance(4.9);
      await status(app.clientSecret!).expect(404); // cached: the old secret still authenticates
      clock.advance(0.2);
      await status(app.clientSecret!).expect(401);
      await status(rotated.body.clientSecret).expect(404);
      app = { ...app, clientSecret: rotated.body.clientSecret };
    } finally {
      await elsewhere.close();
    }
  });

  describe('the context a direct login starts from (whitelist, callback URLs, link lifetime)', () => {
    const start = (redirectUri = REDIRECT_URI) =>
      authenticateDirect(stack.auth.url, app, { email: uniqueEmail('context'), redirect_uri: redirectUri, state: 'st' });
    const invalidated = (matches: (message: CacheInvalidation) => boolean) =>
      new Promise<void>((resolve) => stack.auth.app.get(CacheInvalidationBus).subscribe((message) => matches(message) && resolve()));
    /** Changes the organization, and waits for the invalidation to reach auth-api (so no test sees the one before's cache). */
    async function updateOrganization(body: object): Promise<void> {
      const reached = invalidated((message) => message.kind === 'organization' && message.organizationId === app.organizationId);
      await call(stack.management.url, 'post', `/organization/${app.organizationId}`, app.apiKey, body).expect(200);
      await reached;
    }
    async function updateApplication(body: object): Promise<void> {
      const reached = invalidated((message) => message.kind === 'application' && message.applicationId === app.applicationId);
      await call(
        stack.management.url,
        'post',
        `/organization/${app.organizationId}/application/${app.applicationId}`,
        app.apiKey,
        body,
      ).expect(200);
      await reached;
    }

    it('a whitelist domain removed is refused at once: the invalidation reaches the cache', async () => {
      await start().expect(200); // looked up, and cached
      await updateOrganization({ whitelistDomains: ['http://localhost:4001'] });
      const refused = await start();
      expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'invalid_request' });
      await start('http://localhost:4001/callback').expect(200);
      await updateOrganization({ whitelistDomains: ['http://localhost:4000'] });
    });

    it('when the invalidation is lost, a removed domain is accepted for at most the cache time, and the link then refuses it', async () => {
      const elsewhere = await startManagementApi({
        clock,
        env: { ...CACHE_ENV, REDIS_PREFIX: `${stack.auth.config.redis.prefix}-elsewhere` },
      });
      try {
        await start().expect(200); // looked up, and cached
        await call(elsewhere.url, 'post', `/organization/${app.organizationId}`, app.apiKey, {
          whitelistDomains: ['http://localhost:4001'],
        }).expect(200);
        clock.advance(4.9);
        const email = uniqueEmail('stale');
        await authenticateDirect(stack.auth.url, app, { email, redirect_uri: REDIRECT_URI, state: 'st' }).expect(200);
        // Whoever holds the link of a login started in that window gains nothing: it never leads to the removed domain.
        const pressed = await useLink(stack.auth.url, tokenIn(await smtp.next(email)));
        expect({ status: pressed.status, location: pressed.headers.location }).toEqual({ status: 400, location: undefined });
        clock.advance(0.2);
        expect((await start()).status).toBe(400);
      } finally {
        await updateOrganization({ whitelistDomains: ['http://localhost:4000'] });
        await elsewhere.close();
      }
    });

    it('a callback URL registered is required at once: the invalidation reaches the cache', async () => {
      await start().expect(200);
      await updateApplication({ callbackUrls: ['http://localhost:4000/registered'] });
      expect((await start()).status).toBe(400);
      await start('http://localhost:4000/registered').expect(200);
      await updateApplication({ callbackUrls: [] });
    });

    it("the hosted page's too: a callback URL registered is required at once", async () => {
      const { challenge } = pkcePair();
      const authorize = (redirectUri: string) =>
        request(stack.auth.url).get('/api/v1/authorize').query({
          response_type: 'code',
          client_id: app.clientId,
          redirect_uri: redirectUri,
          state: 'st',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        });
      await authorize(REDIRECT_URI).expect(200); // looked up by client_id, and cached
      await updateApplication({ callbackUrls: ['http://localhost:4000/registered'] });
      const refused = await authorize(REDIRECT_URI);
      expect({ status: refused.status, location: refused.headers.location }).toEqual({ status: 400, location: undefined });
      await authorize('http://localhost:4000/registered').expect(200);
      await updateApplication({ callbackUrls: [] });
    });

    it('when the invalidation is lost, a code typed on the hosted page for a removed domain gets an error page, not a redirect there', async () => {
      const elsewhere = await startManagementApi({
        clock,
        env: { ...CACHE_ENV, REDIS_PREFIX: `${stack.auth.config.redis.prefix}-elsewhere` },
      });
      try {
        const form = await openAuthorize(stack.auth.url, {
          response_type: 'code',
          client_id: app.clientId,
          redirect_uri: REDIRECT_URI,
          state: 'st',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        });
        const email = uniqueEmail('hosted-stale');
        const sent = await submitEmail(stack.auth.url, form, email).expect(200);
        const code = codeIn(await smtp.next(email));
        await call(elsewhere.url, 'post', `/organization/${app.organizationId}`, app.apiKey, {
          whitelistDomains: ['http://localhost:4001'],
        }).expect(200);
        const type = () =>
          request(stack.auth.url)
            .post('/api/v1/authorize/code')
            .set('Cookie', askedCookies(form, sent))
            .type('form')
            .send({ ...hiddenFields(sent.text), code });
        const typed = await type();
        expect({ status: typed.status, location: typed.headers.location }).toEqual({ status: 400, location: undefined });
        // Nothing was used up: with the domain allowed again, the same code signs in.
        await updateOrganization({ whitelistDomains: ['http://localhost:4000'] });
        expect(new URL((await type().expect(303)).headers.location).searchParams.get('code')).toBeTruthy();
      } finally {
        await updateOrganization({ whitelistDomains: ['http://localhost:4000'] });
        await elsewhere.close();
      }
    });

    it('a new link lifetime applies to the next login at once', async () => {
      const before = await start().expect(200);
      await updateOrganization({ linkTtlSeconds: 120 });
      const after = await start().expect(200);
      const expiresIn = async (loginAttemptId: string) => {
        const status = await request(stack.auth.url)
          .get(`/api/v1/login_attempt/${loginAttemptId}`)
          .set('Authorization', basicAuth(app))
          .expect(200);
        return (Date.parse(status.body.expiresAt) - clock.now().getTime()) / 1000;
      };
      expect(await expiresIn(after.body.loginAttemptId)).toBe(120);
      expect(await expiresIn(before.body.loginAttemptId)).toBeGreaterThan(120);
    });
  });
});
