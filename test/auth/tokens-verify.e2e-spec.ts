import { decodeProtectedHeader } from 'jose';
import { sha256 } from '@sesame/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { hostedLogin } from '../support/hosted-login';
import { basicAuth, followLink, pkcePair, uniqueEmail } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';
import { exchangeNative, nativeCode, openIdToken, userInfo, verify, webCode, WEB_REDIRECT_URI } from '../support/tokens';

/**
 * POST /v1/verify: the request format, every client authentication method and their failures
 * (RFC 6749 §2.3, §5.2), and the token response for each application type.
 */
describe('POST /v1/verify', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let web: ApplicationFixture;
  let desktop: ApplicationFixture;
  let android: ApplicationFixture;
  let ios: ApplicationFixture;
  const DESKTOP_CALLBACK = 'http://127.0.0.1/callback';
  const ANDROID_CALLBACK = 'com.example.notes:/oauth/callback';
  const IOS_CALLBACK = 'https://notes.example.com/ios/callback';

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['http://localhost:4000'] });
    web = await createApplication(stack.management.url, organization, { type: 'web' });
    desktop = await createApplication(stack.management.url, organization, { type: 'desktop', callbackUrls: [DESKTOP_CALLBACK] });
    android = await createApplication(stack.management.url, organization, { type: 'android', callbackUrls: [ANDROID_CALLBACK] });
    ios = await createApplication(stack.management.url, organization, { type: 'ios', callbackUrls: [IOS_CALLBACK] });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  /** Asserts an RFC 6749 §5.2 error response. */
  function expectOAuthError(response: request.Response, status: number, error: string): void {
    expect({ status: response.status, error: response.body.error }).toEqual({ status, error });
    expect(response.body.error_description).toEqual(expect.any(String));
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
  }

  function expectInvalidClient(response: request.Response): void {
    expectOAuthError(response, 401, 'invalid_client');
    expect(response.headers['www-authenticate']).toMatch(/^Basic realm=/);
  }

  describe('request format', () => {
    it('takes application/x-www-form-urlencoded only: JSON is invalid_request', async () => {
      const { code, redirectUri } = await webCode(stack, smtp, web);
      const response = await request(stack.auth.url)
        .post('/api/v1/verify')
        .set('Authorization', basicAuth(web))
        .send({ code, redirect_uri: redirectUri });
      expectOAuthError(response, 400, 'invalid_request');
      // The refused request did not use the code.
      await verify(stack.auth.url, { code, redirect_uri: redirectUri }, basicAuth(web)).expect(200);
    });

    it.each([
      ['code', { redirect_uri: WEB_REDIRECT_URI }],
      ['redirect_uri', { code: 'x'.repeat(43) }],
    ])('answers invalid_request without %s', async (_, form) => {
      expectOAuthError(await verify(stack.auth.url, form, basicAuth(web)), 400, 'invalid_request');
    });

    it('answers unsupported_grant_type for any grant_type other than authorization_code, and accepts authorization_code', async () => {
      const { code, redirectUri } = await webCode(stack, smtp, web);
      for (const grantType of ['password', 'client_credentials', 'refresh_token', 'AUTHORIZATION_CODE']) {
        expectOAuthError(
          await verify(stack.auth.url, { grant_type: grantType, code, redirect_uri: redirectUri }, basicAuth(web)),
          400,
          'unsupported_grant_type',
        );
      }
      await verify(stack.auth.url, { grant_type: 'authorization_code', code, redirect_uri: redirectUri }, basicAuth(web)).expect(200);
    });

    it('answers invalid_grant for a code that was never issued', async () => {
      expectOAuthError(
        await verify(stack.auth.url, { code: 'A'.repeat(43), redirect_uri: WEB_REDIRECT_URI }, basicAuth(web)),
        400,
        'invalid_grant',
      );
      expectOAuthError(
        await verify(stack.auth.url, { code: 'short', redirect_uri: WEB_REDIRECT_URI }, basicAuth(web)),
        400,
        'invalid_grant',
      );
    });
  });

  describe('client authentication', () => {
    it('client_secret_basic (preferred), with client_id and secret form-urlencoded before base64 (RFC 6749 §2.3.1)', async () => {
      const issued = await webCode(stack, smtp, web);
      // Every character percent-encoded: a server that skipped the decoding would not find the client.
      const encode = (value: string) =>
        [...value].map((character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
      const header = `Basic ${Buffer.from(`${encode(web.clientId)}:${encode(web.clientSecret!)}`).toString('base64')}`;
      const response = await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, header).expect(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers.pragma).toBe('no-cache');
    });

    it('client_secret_post: client_id and client_secret in the body', async () => {
      const issued = await webCode(stack, smtp, web);
      const response = await verify(stack.auth.url, {
        client_id: web.clientId,
        client_secret: web.clientSecret!,
        code: issued.code,
        redirect_uri: issued.redirectUri,
      }).expect(200);
      expect(response.body.token_type).toBe('Bearer');
    });

    it('accepts client_id in the body next to a Basic header naming the same client', async () => {
      const issued = await webCode(stack, smtp, web);
      await verify(stack.auth.url, { client_id: web.clientId, code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(web)).expect(
        200,
      );
    });

    it('none: a native app sends client_id and the PKCE verifier alone', async () => {
      const issued = await nativeCode(stack, smtp, desktop, 'http://127.0.0.1:49152/callback');
      const tokens = await exchangeNative(stack, desktop, issued);
      await userInfo(stack.auth.url, tokens.access_token).expect(200);
    });

    it('two methods at once are invalid_request (Basic and client_secret in the body; Basic and another client_id)', async () => {
      const issued = await webCode(stack, smtp, web);
      const form = { code: issued.code, redirect_uri: issued.redirectUri };
      expectOAuthError(await verify(stack.auth.url, { ...form, client_secret: web.clientSecret! }, basicAuth(web)), 400, 'invalid_request');
      expectOAuthError(
        await verify(stack.auth.url, { ...form, client_id: web.clientId, client_secret: web.clientSecret! }, basicAuth(web)),
        400,
        'invalid_request',
      );
      expectOAuthError(await verify(stack.auth.url, { ...form, client_id: desktop.clientId }, basicAuth(web)), 400, 'invalid_request');
      // None of these used the code.
      await verify(stack.auth.url, form, basicAuth(web)).expect(200);
    });

    it('invalid_client (401, WWW-Authenticate) for no credentials, a wrong secret, an unknown client or a malformed header', async () => {
      const issued = await webCode(stack, smtp, web);
      const form = { code: issued.code, redirect_uri: issued.redirectUri };
      expectInvalidClient(await verify(stack.auth.url, form));
      expectInvalidClient(await verify(stack.auth.url, form, basicAuth({ clientId: web.clientId, clientSecret: 'wrong-secret' })));
      expectInvalidClient(await verify(stack.auth.url, { ...form, client_id: web.clientId, client_secret: `${web.clientSecret}x` }));
      expectInvalidClient(await verify(stack.auth.url, form, basicAuth({ clientId: 'no-such-client', clientSecret: web.clientSecret })));
      expectInvalidClient(await verify(stack.auth.url, form, 'Basic not*base64'));
      expectInvalidClient(await verify(stack.auth.url, form, `Basic ${Buffer.from('no-colon').toString('base64')}`));
      // Authentication failed before the code was looked at: the code still works.
      await verify(stack.auth.url, form, basicAuth(web)).expect(200);
    });

    it('invalid_client for a web app that sends client_id alone, even with a valid PKCE verifier', async () => {
      const issued = await webCode(stack, smtp, web, { pkce: true });
      expectInvalidClient(
        await verify(stack.auth.url, {
          client_id: web.clientId,
          code: issued.code,
          redirect_uri: issued.redirectUri,
          code_verifier: issued.verifier,
        }),
      );
    });

    it('invalid_client (401) for a native app that presents a client secret: an authentication method it does not support (RFC 6749 §5.2); the code still works', async () => {
      const issued = await nativeCode(stack, smtp, desktop, 'http://127.0.0.1:49153/callback');
      const form = { code: issued.code, redirect_uri: issued.redirectUri, code_verifier: issued.verifier };
      for (const response of [
        await verify(stack.auth.url, { ...form, client_id: desktop.clientId, client_secret: 'anything' }),
        await verify(stack.auth.url, form, basicAuth({ clientId: desktop.clientId, clientSecret: 'anything' })),
      ]) {
        expect([response.status, response.body.error, response.headers['www-authenticate']]).toEqual([
          401,
          'invalid_client',
          'Basic realm="sesame"',
        ]);
      }
      await exchangeNative(stack, desktop, issued);
    });
  });

  describe('the token response for each application type', () => {
    it('web app: opaque access token, and an id_token JWE (dir, A256GCM, cty JWT) keyed by SHA-256 of the client secret', async () => {
      const issued = await webCode(stack, smtp, web, { pkce: true });
      const before = Math.floor(Date.now() / 1000);
      const response = await verify(
        stack.auth.url,
        { code: issued.code, redirect_uri: issued.redirectUri, code_verifier: issued.verifier },
        basicAuth(web),
      ).expect(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual({
        access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        id_token: expect.any(String),
        expires_in: 2592000,
        expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
        token_type: 'Bearer',
      });
      expect(decodeProtectedHeader(response.body.id_token)).toEqual({ alg: 'dir', enc: 'A256GCM', cty: 'JWT' });
      const { payload, protectedHeader, encrypted } = await openIdToken(stack, web, response.body.id_token);
      expect(encrypted).toBe(true);
      expect(protectedHeader).toEqual({ alg: 'ES256', kid: expect.any(String), typ: 'JWT' });
      expect(Object.keys(payload).sort()).toEqual(['aud', 'auth_time', 'email', 'email_verified', 'exp', 'iat', 'iss', 'org_id', 'sub']);
      expect(payload).toMatchObject({ aud: web.clientId, email: issued.email, email_verified: true, org_id: web.organizationId });
      expect(payload.iat).toBeGreaterThanOrEqual(before);
      expect(payload.exp! - payload.iat!).toBe(3600);
      expect(payload.auth_time as number).toBeLessThanOrEqual(payload.iat!);
      const user = await userInfo(stack.auth.url, response.body.access_token).expect(200);
      expect(user.body.sub).toBe(payload.sub);
    });

    it('stores codes and access tokens only as SHA-256 hashes', async () => {
      const issued = await webCode(stack, smtp, web);
      const tokens = (await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(web)).expect(200))
        .body;
      const database = stack.auth.app.get(DataSource);
      const [token] = await database.query('SELECT * FROM access_token WHERE hash = $1', [sha256(tokens.access_token)]);
      const [code] = await database.query('SELECT * FROM authorization_code WHERE hash = $1', [sha256(issued.code)]);
      expect(token).toBeDefined();
      expect(code).toBeDefined();
      const stored = JSON.stringify([token, code], (_, value) =>
        value?.type === 'Buffer' ? Buffer.from(value.data).toString('base64url') : value,
      );
      expect(stored).not.toContain(tokens.access_token);
      expect(stored).not.toContain(issued.code);
    });

    it('desktop app (loopback, any port): the signed JWT alone', async () => {
      const issued = await nativeCode(stack, smtp, desktop, 'http://127.0.0.1:61001/callback');
      const tokens = await exchangeNative(stack, desktop, issued);
      expect(tokens.id_token.split('.')).toHaveLength(3);
      const { payload, encrypted } = await openIdToken(stack, desktop, tokens.id_token);
      expect(encrypted).toBe(false);
      expect(payload).toMatchObject({ aud: desktop.clientId, email: issued.email, email_verified: true, org_id: desktop.organizationId });
    });

    it('android app with a custom-scheme redirect: the code arrives on com.example.notes:/oauth/callback and exchanges with PKCE', async () => {
      const issued = await nativeCode(stack, smtp, android, ANDROID_CALLBACK);
      expect(issued.callback.protocol).toBe('com.example.notes:');
      expect(`${issued.callback.protocol}${issued.callback.pathname}`).toBe(ANDROID_CALLBACK);
      expect(issued.callback.searchParams.get('state')).toBe('native-state');
      const tokens = await exchangeNative(stack, android, issued);
      const { payload } = await openIdToken(stack, android, tokens.id_token);
      expect(payload.aud).toBe(android.clientId);
    });

    it('ios app with an https (universal link) redirect', async () => {
      const issued = await nativeCode(stack, smtp, ios, IOS_CALLBACK);
      const tokens = await exchangeNative(stack, ios, issued);
      const { payload } = await openIdToken(stack, ios, tokens.id_token);
      expect(payload.email).toBe(issued.email);
    });

    it('web app through the hosted login page with PKCE, exchanged with its secret and the verifier', async () => {
      const email = uniqueEmail('hosted-web');
      const { verifier, challenge } = pkcePair();
      const callback = await hostedLogin(
        stack,
        smtp,
        {
          response_type: 'code',
          client_id: web.clientId,
          redirect_uri: WEB_REDIRECT_URI,
          state: 'w',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        },
        email,
      );
      const response = await verify(
        stack.auth.url,
        { code: callback.searchParams.get('code')!, redirect_uri: WEB_REDIRECT_URI, code_verifier: verifier },
        basicAuth(web),
      ).expect(200);
      const { payload } = await openIdToken(stack, web, response.body.id_token);
      expect(payload.email).toBe(email);
    });

    it('a web app registered with idTokenEncryptedResponseAlg null gets the signed JWT, with the nonce of direct authentication; switching back encrypts again', async () => {
      const signed = await createApplication(stack.management.url, { ...web }, { type: 'web', idTokenEncryptedResponseAlg: null });
      const email = uniqueEmail('signed-only');
      await request(stack.auth.url)
        .post('/api/v1/authenticate_direct')
        .set('Authorization', basicAuth(signed))
        .send({ email, redirect_uri: WEB_REDIRECT_URI, state: 's', nonce: 'direct-nonce-1' })
        .expect(200);
      const callback = await followLink(stack, smtp, email);
      const response = await verify(
        stack.auth.url,
        { code: callback.searchParams.get('code')!, redirect_uri: WEB_REDIRECT_URI },
        basicAuth(signed),
      ).expect(200);
      expect(response.body.id_token.split('.')).toHaveLength(3);
      const { payload, encrypted } = await openIdToken(stack, signed, response.body.id_token);
      expect({ encrypted, email: payload.email, nonce: payload.nonce }).toEqual({ encrypted: false, email, nonce: 'direct-nonce-1' });

      await request(stack.management.url)
        .post(`/api/v2/organization/${signed.organizationId}/application/${signed.applicationId}`)
        .set('Authorization', `Bearer ${signed.apiKey}`)
        .send({ idTokenEncryptedResponseAlg: 'dir' })
        .expect(200);
      const issued = await webCode(stack, smtp, signed);
      // (The test run sets CLIENT_CACHE_SECONDS=0, so the auth API sees the change at once.)
      const again = await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(signed)).expect(200);
      expect(again.body.id_token.split('.')).toHaveLength(5);
    });

    it('a web app’s id_token does not open with another application’s secret', async () => {
      const other = await createApplication(stack.management.url, { ...web }, { type: 'web' });
      const issued = await webCode(stack, smtp, web);
      const response = await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(web)).expect(200);
      await expect(openIdToken(stack, { ...web, clientSecret: other.clientSecret }, response.body.id_token)).rejects.toThrow();
    });

    it('same user, same sub, whichever application of the organization they sign in to', async () => {
      const email = uniqueEmail('same');
      const fromWeb = await openIdToken(
        stack,
        web,
        (await verify(stack.auth.url, await webForm(email), basicAuth(web)).expect(200)).body.id_token,
      );
      const fromDesktop = await openIdToken(
        stack,
        desktop,
        (await exchangeNative(stack, desktop, await nativeCode(stack, smtp, desktop, 'http://127.0.0.1:61002/callback', email))).id_token,
      );
      expect(fromDesktop.payload.sub).toBe(fromWeb.payload.sub);
    });
  });

  async function webForm(email: string) {
    const issued = await webCode(stack, smtp, web, { email });
    return { code: issued.code, redirect_uri: issued.redirectUri };
  }
});
