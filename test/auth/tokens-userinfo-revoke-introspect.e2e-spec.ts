import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';
import { exchangeNative, exchangeWeb, nativeCode, TokenBody, userInfo, webCode } from '../support/tokens';

/** GET /v1/userinfo (RFC 6750 errors), POST /v1/revoke (RFC 7009) and POST /v1/introspect (RFC 7662). */
describe('userinfo, revocation and introspection', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let web: ApplicationFixture;
  let sibling: ApplicationFixture;
  let desktop: ApplicationFixture;
  let stranger: ApplicationFixture;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant);
    web = await createApplication(stack.management.url, organization, { type: 'web' });
    sibling = await createApplication(stack.management.url, organization, { type: 'web' });
    desktop = await createApplication(stack.management.url, organization, { type: 'desktop', callbackUrls: ['http://127.0.0.1/callback'] });
    // Another organization of the same tenant: introspection is per organization, not per tenant.
    stranger = await createApplication(stack.management.url, await createOrganization(stack.management.url, tenant), { type: 'web' });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  const signIn = async (): Promise<TokenBody & { email: string }> => {
    const issued = await webCode(stack, smtp, web);
    return { ...(await exchangeWeb(stack, web, issued)), email: issued.email };
  };
  const form = (path: string, body: Record<string, string>, authorization?: string) => {
    const call = request(stack.auth.url).post(`/api/v1/${path}`).type('form');
    if (authorization) call.set('Authorization', authorization);
    return call.send(body);
  };
  const introspect = (token: string, app: ApplicationFixture = web) => form('introspect', { token }, basicAuth(app)).expect(200);

  describe('GET /v1/userinfo', () => {
    it('answers the user of a valid token, never cached; a claim without a value is left out, not null', async () => {
      const tokens = await signIn();
      const response = await userInfo(stack.auth.url, tokens.access_token).expect(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toEqual({
        sub: expect.stringMatching(/^[0-9a-f-]{36}$/),
        email: tokens.email,
        email_verified: true,
        organization_id: web.organizationId,
        updated_at: expect.any(Number),
      });
      expect(response.body).not.toHaveProperty('name'); // OpenID Connect Core §5.3.2
    });

    it('shows a name set through the management API, with a later updated_at', async () => {
      const tokens = await signIn();
      const before = (await userInfo(stack.auth.url, tokens.access_token).expect(200)).body;
      await request(stack.management.url)
        .post(`/api/v2/organization/${web.organizationId}/user/${before.sub}`)
        .set('Authorization', `Bearer ${web.apiKey}`)
        .send({ name: 'Ada Lovelace' })
        .expect(200);
      const after = (await userInfo(stack.auth.url, tokens.access_token).expect(200)).body;
      expect(after.name).toBe('Ada Lovelace');
      expect(after.updated_at).toBeGreaterThanOrEqual(before.updated_at);
    });

    it('without a token: 401 with a bare Bearer challenge (RFC 6750 §3.1)', async () => {
      const response = await request(stack.auth.url).get('/api/v1/userinfo').expect(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="sesame"');
    });

    it.each([
      ['an unknown token', `Bearer ${'A'.repeat(43)}`],
      ['a malformed token', 'Bearer not a token'],
      ['an empty Bearer', 'Bearer'],
    ])('%s: 401 invalid_token', async (_, authorization) => {
      const response = await request(stack.auth.url).get('/api/v1/userinfo').set('Authorization', authorization).expect(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="sesame"(, error="invalid_token".*)?$/);
      expect(response.body.error).toBe('invalid_token');
    });

    it('client credentials are not an access token', async () => {
      const response = await request(stack.auth.url).get('/api/v1/userinfo').set('Authorization', basicAuth(web)).expect(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer /);
    });

    it('a blocked user’s tokens stop working', async () => {
      const tokens = await signIn();
      const { sub } = (await userInfo(stack.auth.url, tokens.access_token).expect(200)).body;
      await request(stack.management.url)
        .post(`/api/v2/organization/${web.organizationId}/user/${sub}`)
        .set('Authorization', `Bearer ${web.apiKey}`)
        .send({ blocked: true })
        .expect(200);
      const response = await userInfo(stack.auth.url, tokens.access_token).expect(401);
      expect(response.headers['www-authenticate']).toMatch(/error="invalid_token"/);
      expect((await introspect(tokens.access_token)).body).toEqual({ active: false });
    });
  });

  describe('POST /v1/revoke (RFC 7009)', () => {
    it('revokes the client’s own token (Basic): userinfo then answers 401 invalid_token', async () => {
      const tokens = await signIn();
      const response = await form('revoke', { token: tokens.access_token, token_type_hint: 'access_token' }, basicAuth(web)).expect(200);
      expect(response.text).toBe('');
      const refused = await userInfo(stack.auth.url, tokens.access_token).expect(401);
      expect(refused.headers['www-authenticate']).toMatch(/error="invalid_token"/);
      expect((await introspect(tokens.access_token)).body).toEqual({ active: false });
      // Revoking again is fine too.
      await form('revoke', { token: tokens.access_token }, basicAuth(web)).expect(200);
    });

    it('with client_secret_post, and ignoring an unknown token_type_hint', async () => {
      const tokens = await signIn();
      await form('revoke', {
        token: tokens.access_token,
        token_type_hint: 'refresh_token',
        client_id: web.clientId,
        client_secret: web.clientSecret!,
      }).expect(200);
      await userInfo(stack.auth.url, tokens.access_token).expect(401);
    });

    it('a native app revokes its token with client_id alone', async () => {
      const tokens = await exchangeNative(stack, desktop, await nativeCode(stack, smtp, desktop, 'http://127.0.0.1:43210/callback'));
      await form('revoke', { token: tokens.access_token, client_id: desktop.clientId }).expect(200);
      await userInfo(stack.auth.url, tokens.access_token).expect(401);
    });

    it('answers 200 for an unknown token, and for another client’s token, which stays active', async () => {
      await form('revoke', { token: 'A'.repeat(43) }, basicAuth(web)).expect(200);
      await form('revoke', { token: 'garbage' }, basicAuth(web)).expect(200);
      const tokens = await signIn();
      await form('revoke', { token: tokens.access_token }, basicAuth(sibling)).expect(200);
      await form('revoke', { token: tokens.access_token, client_id: desktop.clientId }).expect(200);
      await userInfo(stack.auth.url, tokens.access_token).expect(200);
    });

    it('refuses requests without client authentication (401 invalid_client), without a token or not as a form (invalid_request)', async () => {
      const tokens = await signIn();
      const anonymous = await form('revoke', { token: tokens.access_token }).expect(401);
      expect(anonymous.body.error).toBe('invalid_client');
      expect(anonymous.headers['www-authenticate']).toMatch(/^Basic /);
      // A web app cannot use the secret-less method.
      expect((await form('revoke', { token: tokens.access_token, client_id: web.clientId }).expect(401)).body.error).toBe('invalid_client');
      expect((await form('revoke', {}, basicAuth(web)).expect(400)).body.error).toBe('invalid_request');
      const json = await request(stack.auth.url)
        .post('/api/v1/revoke')
        .set('Authorization', basicAuth(web))
        .send({ token: tokens.access_token })
        .expect(400);
      expect(json.body.error).toBe('invalid_request');
      await userInfo(stack.auth.url, tokens.access_token).expect(200);
    });
  });

  describe('POST /v1/introspect (RFC 7662)', () => {
    it('describes an active token, never cached', async () => {
      const tokens = await signIn();
      const { sub } = (await userInfo(stack.auth.url, tokens.access_token).expect(200)).body;
      const response = await introspect(tokens.access_token);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toEqual({
        active: true,
        client_id: web.clientId,
        sub,
        exp: Math.floor(Date.parse(tokens.expires_at) / 1000),
        iat: expect.any(Number),
        iss: `${stack.auth.config.http.publicBaseUrl}/v1`,
        token_type: 'Bearer',
        email: tokens.email,
        org_id: web.organizationId,
      });
    });

    it('another application of the same organization sees it active (with client_secret_post too)', async () => {
      const tokens = await signIn();
      expect((await introspect(tokens.access_token, sibling)).body).toMatchObject({ active: true, client_id: web.clientId });
      const posted = await form('introspect', {
        token: tokens.access_token,
        client_id: sibling.clientId,
        client_secret: sibling.clientSecret!,
      }).expect(200);
      expect(posted.body.active).toBe(true);
    });

    it('an application of another organization sees { active: false } and nothing more', async () => {
      const tokens = await signIn();
      expect((await introspect(tokens.access_token, stranger)).body).toEqual({ active: false });
    });

    it('unknown and malformed tokens are inactive', async () => {
      expect((await introspect('A'.repeat(43))).body).toEqual({ active: false });
      expect((await introspect('not-a-token')).body).toEqual({ active: false });
    });

    it('requires a client secret: native apps (client_id alone) and anonymous callers get 401 invalid_client', async () => {
      const tokens = await signIn();
      expect((await form('introspect', { token: tokens.access_token, client_id: desktop.clientId }).expect(401)).body.error).toBe(
        'invalid_client',
      );
      expect((await form('introspect', { token: tokens.access_token }).expect(401)).body.error).toBe('invalid_client');
      expect((await form('introspect', {}, basicAuth(web)).expect(400)).body.error).toBe('invalid_request');
    });
  });
});
