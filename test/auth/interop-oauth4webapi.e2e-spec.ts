import { compactDecrypt } from 'jose';
import { createHash } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { GatewayStack, startGatewayStack } from '../support/gateway';
import { userSignsIn as signInThroughPages } from '../support/hosted-login';
import { uniqueEmail } from '../support/login';
import { LoopbackListener } from '../support/loopback';
import { SmtpSink } from '../support/smtp-sink';

/**
 * Interoperability: a third-party, standards-only OAuth 2.0 / OpenID Connect client (oauth4webapi,
 * by the author of jose) configured from nothing but the issuer URL, drives the hosted login,
 * the code exchange, the id_token checks, userinfo, introspection and revocation.
 *
 * The stack runs behind a gateway on one public address, as in production, so that the issuer
 * the client discovers from is the issuer the service puts in its id_tokens (oauth4webapi
 * compares them, as RFC 8414 §3.3 and OpenID Connect Discovery §4.3 require).
 *
 * Web apps get the id_token as a JWE (alg dir, enc A256GCM, key = SHA-256 of the client secret).
 * oauth4webapi does not derive keys, but it has a documented hook for exactly this,
 * `[oauth.jweDecrypt]` ("Encrypted ID Tokens returned by the Token Endpoint"): we pass a function
 * that opens the JWE with jose, and the library then validates the inner JWT's claims itself
 * (iss, aud, exp, iat, auth_time, no nonce, ES256 from the metadata). It does not check the
 * signature of an id_token received over the back channel (TLS authenticates the server), so we
 * ask it to with its own validateApplicationLevelSignature, which fetches the JWKS from jwks_uri.
 */
describe('interoperability with oauth4webapi', () => {
  const smtp = new SmtpSink();
  const listener = new LoopbackListener('/callback');
  const insecure = { [oauth.allowInsecureRequests]: true } as const; // the test stack speaks http on 127.0.0.1
  let gateway: GatewayStack;
  let issuer: URL;
  let as: oauth.AuthorizationServer;
  let web: ApplicationFixture;
  let desktop: ApplicationFixture;
  const WEB_REDIRECT_URI = 'http://localhost:4000/callback';

  beforeAll(async () => {
    await smtp.start();
    await listener.start();
    gateway = await startGatewayStack(smtp.url);
    issuer = new URL(gateway.issuer);
    const management = gateway.stack.management.url;
    const tenant = await createTenant(management, 'basic');
    const organization = await createOrganization(management, tenant, { name: 'Interop Org', whitelistDomains: ['http://localhost:4000'] });
    web = await createApplication(management, organization, { type: 'web', name: 'Interop Web' });
    desktop = await createApplication(management, organization, {
      type: 'desktop',
      name: 'Interop Desktop',
      callbackUrls: ['http://127.0.0.1/callback'],
    });
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
  });

  afterAll(async () => {
    await gateway.close();
    await listener.stop();
    await smtp.stop();
  });

  it('discovers the same metadata at the OpenID Connect location and at RFC 8414’s well-known URI (through the gateway)', async () => {
    const rfc8414 = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    expect(rfc8414).toEqual(as);
    expect(as.issuer).toBe(gateway.issuer);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
  });

  /** The user's part, over plain HTTP; the mailed link must use the public address too. */
  async function userSignsIn(authorizationUrl: URL, email: string): Promise<URL> {
    const { link, callback } = await signInThroughPages(smtp, authorizationUrl, email);
    expect(link.origin).toBe(issuer.origin);
    return callback;
  }

  function authorizationUrl(client: oauth.Client, redirectUri: string, state: string, codeChallenge: string): URL {
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirectUri,
      scope: 'openid email',
      state,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
    }).toString();
    return url;
  }

  /** The jweDecrypt hook: SHA-256 of the client secret is the `dir` key (OpenID Connect Core §10.2). */
  const decryptWithSecret =
    (clientSecret: string): oauth.JweDecryptFunction =>
    async (jwe) => {
      const key = createHash('sha256').update(clientSecret).digest();
      const { plaintext } = await compactDecrypt(jwe, key, {
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
      }).catch((cause: unknown) => {
        throw new oauth.OperationProcessingError('decryption failed', { cause });
      });
      return new TextDecoder().decode(plaintext);
    };

  it.each([
    ['client_secret_basic', (secret: string) => oauth.ClientSecretBasic(secret)],
    ['client_secret_post', (secret: string) => oauth.ClientSecretPost(secret)],
  ])(
    'web app (%s): code with PKCE and state, JWE id_token through the jweDecrypt hook, userinfo, introspection, revocation',
    async (_, clientAuthFor) => {
      const client: oauth.Client = { client_id: web.clientId, require_auth_time: true };
      const clientAuth = clientAuthFor(web.clientSecret!);
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const email = uniqueEmail('interop-web');

      const callback = await userSignsIn(
        authorizationUrl(client, WEB_REDIRECT_URI, state, await oauth.calculatePKCECodeChallenge(verifier)),
        email,
      );
      const params = oauth.validateAuthResponse(as, client, callback, state);

      const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, WEB_REDIRECT_URI, verifier, insecure);
      const result = await oauth.processAuthorizationCodeResponse(as, client, response, {
        requireIdToken: true,
        maxAge: 300,
        [oauth.jweDecrypt]: decryptWithSecret(web.clientSecret!),
      });
      expect(result.token_type).toBe('bearer'); // oauth4webapi normalises the type
      expect(result.expires_in).toBe(30 * 24 * 3600);
      expect(result.id_token!.split('.')).toHaveLength(5); // it was a JWE
      await oauth.validateApplicationLevelSignature(as, response, insecure);
      const claims = oauth.getValidatedIdTokenClaims(result)!;
      expect(claims).toMatchObject({ iss: gateway.issuer, aud: web.clientId, email, email_verified: true, org_id: web.organizationId });

      const info = await oauth.processUserInfoResponse(
        as,
        client,
        claims.sub,
        await oauth.userInfoRequest(as, client, result.access_token, insecure),
      );
      expect(info).toMatchObject({ sub: claims.sub, email, email_verified: true, organization_id: web.organizationId });

      const active = await oauth.processIntrospectionResponse(
        as,
        client,
        await oauth.introspectionRequest(as, client, clientAuth, result.access_token, insecure),
      );
      expect(active).toMatchObject({ active: true, client_id: web.clientId, sub: claims.sub, token_type: 'Bearer' });

      await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, result.access_token, insecure));
      const inactive = await oauth.processIntrospectionResponse(
        as,
        client,
        await oauth.introspectionRequest(as, client, clientAuth, result.access_token, insecure),
      );
      expect(inactive.active).toBe(false);
      // The library understands the RFC 6750 challenge of a revoked token.
      const refused = await oauth.userInfoRequest(as, client, result.access_token, insecure);
      await expect(oauth.processUserInfoResponse(as, client, claims.sub, refused)).rejects.toMatchObject({
        code: oauth.WWW_AUTHENTICATE_CHALLENGE,
        cause: [expect.objectContaining({ scheme: 'bearer', parameters: expect.objectContaining({ error: 'invalid_token' }) })],
      });
    },
  );

  it('native app (desktop, loopback on a random port): public client with PKCE only, signed id_token', async () => {
    const client: oauth.Client = { client_id: desktop.clientId, require_auth_time: true };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const email = uniqueEmail('interop-native');
    const redirectUri = listener.redirectUri;

    const callback = await userSignsIn(
      authorizationUrl(client, redirectUri, state, await oauth.calculatePKCECodeChallenge(verifier)),
      email,
    );
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    const params = oauth.validateAuthResponse(as, client, callback, state);

    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure);
    const result = await oauth.processAuthorizationCodeResponse(as, client, response, { requireIdToken: true, maxAge: 300 });
    expect(result.id_token!.split('.')).toHaveLength(3);
    await oauth.validateApplicationLevelSignature(as, response, insecure);
    const claims = oauth.getValidatedIdTokenClaims(result)!;
    expect(claims).toMatchObject({ iss: gateway.issuer, aud: desktop.clientId, email, org_id: desktop.organizationId });

    const info = await oauth.processUserInfoResponse(
      as,
      client,
      claims.sub,
      await oauth.userInfoRequest(as, client, result.access_token, insecure),
    );
    expect(info.email).toBe(email);

    // A second exchange of the same code: the library surfaces the RFC 6749 §5.2 error.
    const replay = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure);
    await expect(oauth.processAuthorizationCodeResponse(as, client, replay)).rejects.toMatchObject({ error: 'invalid_grant', status: 400 });

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), result.access_token, insecure));
  });

  it('state mismatch and error callbacks are caught by the client (the service sends error, error_description, state)', async () => {
    const client: oauth.Client = { client_id: desktop.clientId };
    const url = authorizationUrl(client, listener.redirectUri, 'the-state', 'not-a-valid-challenge');
    const answer = await fetch(url, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const callback = new URL(answer.headers.get('location')!);
    expect(() => oauth.validateAuthResponse(as, client, callback, 'another-state')).toThrow(/state/);
    expect(() => oauth.validateAuthResponse(as, client, callback, 'the-state')).toThrow(
      expect.objectContaining({ error: 'invalid_request', error_description: expect.any(String) }),
    );
  });
});
