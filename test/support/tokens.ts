import { createHash } from 'node:crypto';
import { compactDecrypt, createRemoteJWKSet, JWTPayload, jwtVerify, JWTVerifyResult } from 'jose';
import request from 'supertest';
import { Stack } from './apps';
import { ApplicationFixture } from './fixtures';
import { hostedLogin } from './hosted-login';
import { basicAuth, loginByLink, pkcePair, uniqueEmail } from './login';
import { SmtpSink } from './smtp-sink';

/** The redirect_uri of the fixtures' web apps (their organization whitelists http://localhost:4000). */
export const WEB_REDIRECT_URI = 'http://localhost:4000/callback';

/** POST /v1/verify as a form, with an optional Authorization header. */
export function verify(authUrl: string, form: Record<string, string | undefined>, authorization?: string) {
  const call = request(authUrl).post('/api/v1/verify').type('form');
  if (authorization) call.set('Authorization', authorization);
  return call.send(Object.fromEntries(Object.entries(form).filter(([, value]) => value !== undefined)));
}

export interface IssuedCode {
  code: string;
  email: string;
  redirectUri: string;
  /** Set when the login was started with a code_challenge. */
  verifier?: string;
}

/** A code for a web app, through direct authentication and the e-mailed link (pro/enterprise plans). */
export async function webCode(
  stack: Stack,
  smtp: SmtpSink,
  app: ApplicationFixture,
  options: { pkce?: boolean; email?: string } = {},
): Promise<IssuedCode> {
  const email = options.email ?? uniqueEmail('web');
  const pkce = options.pkce ? pkcePair() : undefined;
  const callback = await loginByLink(stack, smtp, app, { email, codeChallenge: pkce?.challenge, redirectUri: WEB_REDIRECT_URI });
  return { code: callback.searchParams.get('code')!, email, redirectUri: WEB_REDIRECT_URI, verifier: pkce?.verifier };
}

/** A code for a native app (PKCE always), through the hosted login page and the e-mailed link. */
export async function nativeCode(
  stack: Stack,
  smtp: SmtpSink,
  app: ApplicationFixture,
  redirectUri: string,
  email = uniqueEmail('native'),
): Promise<IssuedCode & { verifier: string; callback: URL }> {
  const { verifier, challenge } = pkcePair();
  const callback = await hostedLogin(
    stack,
    smtp,
    {
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: redirectUri,
      state: 'native-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    },
    email,
  );
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`No code on ${callback.href}`);
  return { code, email, redirectUri, verifier, callback };
}

/** Exchanges a web app's code with HTTP Basic and returns the token response. */
export async function exchangeWeb(stack: Stack, app: ApplicationFixture, issued: IssuedCode): Promise<TokenBody> {
  const response = await verify(
    stack.auth.url,
    { code: issued.code, redirect_uri: issued.redirectUri, code_verifier: issued.verifier },
    basicAuth(app),
  ).expect(200);
  return response.body;
}

/** Exchanges a native app's code with client_id and the verifier alone. */
export async function exchangeNative(stack: Stack, app: ApplicationFixture, issued: IssuedCode & { verifier: string }): Promise<TokenBody> {
  const response = await verify(stack.auth.url, {
    client_id: app.clientId,
    code: issued.code,
    redirect_uri: issued.redirectUri,
    code_verifier: issued.verifier,
  }).expect(200);
  return response.body;
}

export interface TokenBody {
  access_token: string;
  id_token: string;
  expires_in: number;
  expires_at: string;
  token_type: 'Bearer';
}

/** Opens a web app's JWE id_token with SHA-256(client secret), then checks the inner JWT against the JWKS. */
export async function openIdToken(
  stack: Stack,
  app: ApplicationFixture,
  idToken: string,
  options: { currentDate?: Date } = {},
): Promise<JWTVerifyResult<JWTPayload> & { encrypted: boolean }> {
  const jwks = createRemoteJWKSet(new URL(`${stack.auth.url}/api/v1/.well-known/jwks.json`));
  const verifyOptions = {
    issuer: `${stack.auth.config.http.publicBaseUrl}/v1`,
    audience: app.clientId,
    algorithms: ['ES256'],
    currentDate: options.currentDate,
  };
  if (idToken.split('.').length === 5) {
    const key = createHash('sha256').update(app.clientSecret!).digest();
    const { plaintext } = await compactDecrypt(idToken, key);
    return { ...(await jwtVerify(new TextDecoder().decode(plaintext), jwks, verifyOptions)), encrypted: true };
  }
  return { ...(await jwtVerify(idToken, jwks, verifyOptions)), encrypted: false };
}

/** GET /v1/userinfo with a Bearer token. */
export function userInfo(authUrl: string, accessToken: string) {
  return request(authUrl).get('/api/v1/userinfo').set('Authorization', `Bearer ${accessToken}`);
}
