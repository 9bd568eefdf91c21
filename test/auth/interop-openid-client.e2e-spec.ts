import * as client from 'openid-client';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { GatewayStack, startGatewayStack } from '../support/gateway';
import { userSignsIn } from '../support/hosted-login';
import { uniqueEmail } from '../support/login';
import { LoopbackListener } from '../support/loopback';
import { SmtpSink } from '../support/smtp-sink';

/**
 * Interoperability with openid-client 6, the most used Node OpenID Connect relying party, set up as
 * its documentation tells a new user: discovery from the issuer URL, the authorization URL with
 * PKCE, state and nonce, the callback, the code exchange with the id_token validated (claims,
 * nonce, and with enableNonRepudiationChecks its signature against the JWKS), userinfo, revocation.
 *
 * openid-client decrypts id_tokens only with private keys, so a web app that wants it registers
 * with a signed-only id_token (idTokenEncryptedResponseAlg null); native apps always get one.
 * The stack runs behind a gateway on one public address, so the issuer the client discovers is
 * the one in the id_tokens.
 */
describe('interoperability with openid-client', () => {
  const smtp = new SmtpSink();
  const listener = new LoopbackListener('/callback');
  const WEB_REDIRECT_URI = 'http://localhost:4000/callback';
  let gateway: GatewayStack;
  let web: ApplicationFixture;
  let encryptedWeb: ApplicationFixture;
  let desktop: ApplicationFixture;

  beforeAll(async () => {
    await smtp.start();
    await listener.start();
    gateway = await startGatewayStack(smtp.url);
    const management = gateway.stack.management.url;
    const organization = await createOrganization(management, await createTenant(management, 'basic'), {
      name: 'OIDC Org',
      whitelistDomains: ['http://localhost:4000'],
    });
    web = await createApplication(management, organization, { type: 'web', name: 'OIDC Web', idTokenEncryptedResponseAlg: null });
    encryptedWeb = await createApplication(management, organization, { type: 'web', name: 'OIDC Web (encrypted)' });
    desktop = await createApplication(management, organization, {
      type: 'desktop',
      name: 'OIDC Desktop',
      callbackUrls: ['http://127.0.0.1/callback'],
    });
  });

  afterAll(async () => {
    await gateway.close();
    await listener.stop();
    await smtp.stop();
  });

  /** As the library's README does it; allowInsecureRequests because the test stack speaks http on 127.0.0.1. */
  async function configure(app: ApplicationFixture, authentication: client.ClientAuth): Promise<client.Configuration> {
    const config = await client.discovery(new URL(gateway.issuer), app.clientId, undefined, authentication, {
      execute: [client.allowInsecureRequests],
    });
    client.enableNonRepudiationChecks(config);
    return config;
  }

  async function signIn(config: client.Configuration, redirectUri: string, email: string) {
    const pkceCodeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email',
      code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    const { callback } = await userSignsIn(smtp, url, email);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
      maxAge: 300,
    });
    return { tokens, nonce, callback };
  }

  it('discovers the metadata from the issuer alone', async () => {
    const config = await configure(web, client.ClientSecretBasic(web.clientSecret!));
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(gateway.issuer);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.claims_supported).toContain('nonce');
  });

  it.each([
    ['client_secret_basic', () => client.ClientSecretBasic(web.clientSecret!)],
    ['client_secret_post', () => client.ClientSecretPost(web.clientSecret!)],
  ])(
    'web app with a signed-only id_token (%s): PKCE, state, nonce, a verified id_token, userinfo, revocation',
    async (_, authentication) => {
      const config = await configure(web, authentication());
      const email = uniqueEmail('oidc-web');
      const { tokens, nonce } = await signIn(config, WEB_REDIRECT_URI, email);
      const claims = tokens.claims()!;
      expect(claims).toMatchObject({
        iss: gateway.issuer,
        aud: web.clientId,
        nonce,
        email,
        email_verified: true,
        org_id: web.organizationId,
      });
      expect(tokens.id_token!.split('.')).toHaveLength(3);

      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      expect(info).toMatchObject({ sub: claims.sub, email, email_verified: true });

      await client.tokenRevocation(config, tokens.access_token);
      await expect(client.fetchUserInfo(config, tokens.access_token, claims.sub)).rejects.toMatchObject({
        code: 'OAUTH_WWW_AUTHENTICATE_CHALLENGE',
      });
    },
  );

  it('desktop app (public client, loopback on a random port): PKCE, state, nonce, a verified id_token, userinfo, revocation', async () => {
    const config = await configure(desktop, client.None());
    const email = uniqueEmail('oidc-desktop');
    const { tokens, nonce, callback } = await signIn(config, listener.redirectUri, email);
    expect(`${callback.origin}${callback.pathname}`).toBe(listener.redirectUri);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: gateway.issuer, aud: desktop.clientId, nonce, email, org_id: desktop.organizationId });

    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info.email).toBe(email);
    await client.tokenRevocation(config, tokens.access_token);
    await expect(client.fetchUserInfo(config, tokens.access_token, claims.sub)).rejects.toMatchObject({
      code: 'OAUTH_WWW_AUTHENTICATE_CHALLENGE',
    });
  });

  it('catches a wrong state and a wrong nonce itself', async () => {
    const config = await configure(desktop, client.None());
    const pkceCodeVerifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: listener.redirectUri,
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
      code_challenge_method: 'S256',
      state: 'the-state',
      nonce: 'the-nonce',
    });
    const { callback } = await userSignsIn(smtp, url, uniqueEmail('oidc-checks'));
    const reason = (pattern: RegExp) =>
      expect.objectContaining({ cause: expect.objectContaining({ message: expect.stringMatching(pattern) }) });
    await expect(
      client.authorizationCodeGrant(config, callback, { pkceCodeVerifier, expectedState: 'another-state', expectedNonce: 'the-nonce' }),
    ).rejects.toEqual(reason(/state/));
    await expect(
      client.authorizationCodeGrant(config, callback, { pkceCodeVerifier, expectedState: 'the-state', expectedNonce: 'another-nonce' }),
    ).rejects.toEqual(reason(/nonce/));
  });

  it('an application with the default encrypted id_token is not readable by it, as its documentation says (the reason for the signed-only choice)', async () => {
    const config = await configure(encryptedWeb, client.ClientSecretBasic(encryptedWeb.clientSecret!));
    await expect(signIn(config, WEB_REDIRECT_URI, uniqueEmail('oidc-jwe'))).rejects.toEqual(
      expect.objectContaining({
        code: 'OAUTH_UNSUPPORTED_OPERATION',
        cause: expect.objectContaining({ message: expect.stringMatching(/JWE decryption is not configured/) }),
      }),
    );
  });
});
