import { compactDecrypt, createRemoteJWKSet, jwtVerify } from 'jose';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth, loginByLink, pkcePair, uniqueEmail } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';

const REDIRECT_URI = 'http://localhost:4000/callback';

describe('code exchange, id_token and userinfo', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let app: ApplicationFixture;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['http://localhost:4000'] });
    app = await createApplication(stack.management.url, organization, { type: 'web' });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  it('exchanges the code; the id_token opens with the client secret alone and its signature checks against the JWKS', async () => {
    const email = uniqueEmail('ada');
    const { verifier, challenge } = pkcePair();
    const callback = await loginByLink(stack, smtp, app, { email, codeChallenge: challenge, state: 's1' });
    const code = callback.searchParams.get('code')!;

    const exchanged = await request(stack.auth.url)
      .post('/api/v1/verify')
      .set('Authorization', basicAuth(app))
      .type('form')
      .send({ code, redirect_uri: REDIRECT_URI, code_verifier: verifier })
      .expect(200);
    expect(exchanged.headers['cache-control']).toBe('no-store');
    expect(exchanged.body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      id_token: expect.any(String),
      expires_in: 30 * 24 * 3600,
      expires_at: expect.any(String),
      token_type: 'Bearer',
    });
    const expiresAt = Date.parse(exchanged.body.expires_at);
    expect(Math.abs(expiresAt - Date.now() - 30 * 24 * 3600 * 1000)).toBeLessThan(60_000);

    const key = createHash('sha256').update(app.clientSecret!).digest();
    const { plaintext, protectedHeader } = await compactDecrypt(exchanged.body.id_token, key);
    expect(protectedHeader).toEqual({ alg: 'dir', enc: 'A256GCM', cty: 'JWT' });
    const jwks = createRemoteJWKSet(new URL(`${stack.auth.url}/api/v1/.well-known/jwks.json`));
    const { payload, protectedHeader: signed } = await jwtVerify(new TextDecoder().decode(plaintext), jwks, {
      issuer: `${stack.auth.config.http.publicBaseUrl}/v1`,
      audience: app.clientId,
    });
    expect(signed.alg).toBe('ES256');
    expect(payload).toMatchObject({ email, email_verified: true, org_id: app.organizationId });
    expect(typeof payload.sub).toBe('string');
    expect(payload.auth_time).toEqual(expect.any(Number));

    const user = await request(stack.auth.url)
      .get('/api/v1/userinfo')
      .set('Authorization', `Bearer ${exchanged.body.access_token}`)
      .expect(200);
    expect(user.body).toEqual({
      sub: payload.sub,
      email,
      email_verified: true,
      organization_id: app.organizationId,
      updated_at: expect.any(Number),
    });
    expect(user.body).not.toHaveProperty('name'); // no name yet: left out (OpenID Connect Core §5.3.2)
    expect(payload).not.toHaveProperty('name');
  });
});
