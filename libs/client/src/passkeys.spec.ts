import { createHash } from 'node:crypto';
import { createSesameClient } from './client';
import { InvalidStateError, ProviderError, SesameError } from './errors';
import { decodeLoginCookie } from './login-cookie';
import { BASE_URL, CLIENT_ID, CLIENT_SECRET, FakeResponse, fakeFetch, fakeRequest, formOf, RecordedCall, USERINFO } from './testing/fakes';

const REQUEST_OPTIONS = {
  challenge: 'sign-in-challenge_0123456789',
  rpId: 'app.example.com',
  userVerification: 'required',
  timeout: 300000,
};
const CREATION_OPTIONS = {
  challenge: 'registration-challenge_0123',
  rp: { id: 'app.example.com', name: 'Example' },
  user: { id: 'dXNlcg', name: 'ada@example.com', displayName: 'ada@example.com' },
  attestation: 'none',
};

/** A fetch playing Sesame's passkey routes (and verify, userinfo), recording every call. */
function passkeyFetch(overrides: Record<string, { status: number; body?: unknown }> = {}) {
  return fakeFetch((call: RecordedCall) => {
    const path = call.url.slice(BASE_URL.length);
    if (overrides[path]) return overrides[path];
    if (path === '/v1/passkey_direct/options') return { status: 200, body: REQUEST_OPTIONS };
    if (path === '/v1/passkey_direct/verify') {
      const sent = JSON.parse(call.body!);
      return { status: 200, body: { code: 'code-1', state: sent.state, redirectUri: sent.redirect_uri } };
    }
    if (path === '/v1/passkey_direct/register/options') return { status: 200, body: CREATION_OPTIONS };
    if (path === '/v1/passkey_direct/register/verify')
      return { status: 200, body: { registered: true, passkeyId: 'pk-1', name: 'Chrome on macOS' } };
    if (path === '/v1/verify')
      return {
        status: 200,
        body: {
          access_token: 'access-token-1',
          id_token: 'x',
          expires_in: 2_592_000,
          expires_at: '2030-02-01T00:00:00.000Z',
          token_type: 'Bearer',
        },
      };
    if (path === '/v1/userinfo') return { status: 200, body: USERINFO };
    return { status: 404, body: { error: 'not_found', error_description: path } };
  });
}

function client(fetch = passkeyFetch()) {
  return {
    fetch,
    sesame: createSesameClient({
      baseUrl: BASE_URL,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      fetch,
      sleep: async () => undefined,
    }),
  };
}

/** A browser's answer (only clientDataJSON matters to the client: the rest is Sesame's to check). */
function answer(challenge: string, extra: Record<string, unknown> = {}) {
  const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin: 'https://app.example.com' })).toString(
    'base64url',
  );
  return {
    id: 'cred',
    rawId: 'cred',
    type: 'public-key',
    response: { clientDataJSON, authenticatorData: 'AA', signature: 'AA' },
    ...extra,
  };
}

const callTo = (fetch: ReturnType<typeof passkeyFetch>, path: string) =>
  fetch.calls.find((candidate) => candidate.url === `${BASE_URL}${path}`)!;
const sentTo = (fetch: ReturnType<typeof passkeyFetch>, path: string) => {
  const call = callTo(fetch, path);
  return { call, body: JSON.parse(call.body!) as Record<string, unknown> };
};

describe('passkey sign-in', () => {
  it('asks for options with the page’s origin, the callback URL, a signed state and a PKCE challenge, and keeps the login in the login cookie', async () => {
    const { sesame, fetch } = client();
    const res = new FakeResponse();
    const options = await sesame.passkeySignInOptions(
      fakeRequest({ url: '/passkey/options', headers: { referer: 'https://app.example.com/account' } }),
      res,
    );
    expect(options).toEqual(REQUEST_OPTIONS);
    const { call, body } = sentTo(fetch, '/v1/passkey_direct/options');
    expect(call.headers.authorization).toBe(`Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`);
    expect(body).toEqual({
      origin: 'https://app.example.com',
      redirect_uri: 'https://app.example.com/callback',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    expect(res.cookie('sesame_login')).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
  });

  it('unfinished passkey sign-ins give way in the login cookie before an e-mailed login does', async () => {
    const attempt = {
      loginAttemptId: 'attempt-1',
      token: 't',
      sentence: 's',
      approvalNumber: '12',
      allowedDate: '2030-01-01T00:00:00.000Z',
    };
    const { sesame } = client(passkeyFetch({ '/v1/authenticate_direct': { status: 200, body: attempt } }));
    let cookie = '';
    const step = async (start: (req: ReturnType<typeof fakeRequest>, res: FakeResponse) => Promise<unknown>) => {
      const res = new FakeResponse();
      await start(fakeRequest({ url: '/signin', cookies: cookie ? { sesame_login: cookie } : {} }), res);
      cookie = res.cookieValue('sesame_login')!;
    };
    await step((req, res) => sesame.authenticateDirect(req, res, { email: 'ada@example.com' }));
    for (let press = 0; press < 3; press += 1) await step((req, res) => sesame.passkeySignInOptions(req, res));

    const pending = decodeLoginCookie(CLIENT_SECRET, cookie, 3600);
    expect(pending.filter((login) => login.loginAttemptId === 'attempt-1')).toHaveLength(1);
    // The two newest passkey sign-ins stay (two tabs each complete their own).
    expect(pending.filter((login) => login.passkeyChallenge)).toHaveLength(2);
  });

  it('completes the login the answer’s challenge belongs to: the same login fields to Sesame, the code exchanged with the verifier, the session set', async () => {
    const { sesame, fetch } = client();
    const started = new FakeResponse();
    await sesame.passkeySignInOptions(fakeRequest({ url: '/passkey/options' }), started, { returnTo: 'https://app.example.com/after' });
    const optionsSent = sentTo(fetch, '/v1/passkey_direct/options').body;
    const res = new FakeResponse();
    const req = fakeRequest({
      url: '/passkey/verify',
      cookies: { sesame_login: started.cookieValue('sesame_login')! },
      headers: { 'user-agent': 'Firefox/1.0' },
    });
    const completed = await sesame.verifyPasskeySignIn(req, res, { response: answer(REQUEST_OPTIONS.challenge) });
    expect(completed).toEqual({
      user: expect.objectContaining({ id: USERINFO.sub, email: USERINFO.email }),
      returnTo: 'https://app.example.com/after',
      expiresAt: new Date('2030-02-01T00:00:00.000Z'),
    });
    const { body } = sentTo(fetch, '/v1/passkey_direct/verify');
    expect(body).toEqual({
      origin: 'https://app.example.com',
      redirect_uri: optionsSent.redirect_uri,
      state: optionsSent.state,
      code_challenge: optionsSent.code_challenge,
      code_challenge_method: 'S256',
      response: answer(REQUEST_OPTIONS.challenge),
      userAgent: 'Firefox/1.0',
    });
    const exchange = formOf(callTo(fetch, '/v1/verify'));
    expect(exchange.code).toBe('code-1');
    expect(createHash('sha256').update(exchange.code_verifier).digest('base64url')).toBe(optionsSent.code_challenge);
    expect(res.cookieValue('sesame_session')).toBe('access-token-1');
    expect(res.cookie('sesame_login')).toMatch(/^sesame_login=; .*Max-Age=0/);
  });

  it('refuses an answer to options this browser did not ask for (no cookie, another challenge, no clientDataJSON), sending nothing', async () => {
    const { sesame, fetch } = client();
    const started = new FakeResponse();
    await sesame.passkeySignInOptions(fakeRequest(), started);
    const cookies = { sesame_login: started.cookieValue('sesame_login')! };
    for (const [req, response] of [
      [fakeRequest(), answer(REQUEST_OPTIONS.challenge)],
      [fakeRequest({ cookies }), answer('another-challenge')],
      [fakeRequest({ cookies }), { id: 'x' }],
      [fakeRequest({ cookies }), null],
    ] as const) {
      await expect(sesame.verifyPasskeySignIn(req, new FakeResponse(), { response })).rejects.toThrow(InvalidStateError);
    }
    expect(fetch.calls.map((call) => call.url)).toEqual([`${BASE_URL}/v1/passkey_direct/options`]);
  });

  it('throws Sesame’s refusal as a ProviderError and sets no session', async () => {
    const { sesame } = client(
      passkeyFetch({ '/v1/passkey_direct/verify': { status: 400, body: { error: 'passkey_refused', error_description: 'No.' } } }),
    );
    const started = new FakeResponse();
    await sesame.passkeySignInOptions(fakeRequest(), started);
    const res = new FakeResponse();
    const failure = sesame.verifyPasskeySignIn(fakeRequest({ cookies: { sesame_login: started.cookieValue('sesame_login')! } }), res, {
      response: answer(REQUEST_OPTIONS.challenge),
    });
    await expect(failure).rejects.toBeInstanceOf(ProviderError);
    await expect(failure).rejects.toMatchObject({ error: 'passkey_refused', status: 400 });
    expect(res.cookie('sesame_session')).toBeUndefined();
  });

  it('sends a given origin instead of the request’s', async () => {
    const { sesame, fetch } = client();
    await sesame.passkeySignInOptions(fakeRequest(), new FakeResponse(), { origin: 'https://login.example.com' });
    expect(sentTo(fetch, '/v1/passkey_direct/options').body.origin).toBe('https://login.example.com');
  });
});

describe('passkey registration', () => {
  const signedIn = () =>
    fakeRequest({ url: '/passkey/register', cookies: { sesame_session: 'access-token-1' }, headers: { 'user-agent': 'Chrome/1' } });

  it('asks for creation options with the session’s access token and the page’s origin', async () => {
    const { sesame, fetch } = client();
    expect(await sesame.passkeyRegistrationOptions(signedIn())).toEqual(CREATION_OPTIONS);
    expect(sentTo(fetch, '/v1/passkey_direct/register/options').body).toEqual({
      access_token: 'access-token-1',
      origin: 'https://app.example.com',
    });
  });

  it('sends the browser’s answer with the token, the origin and the end user’s browser, and answers the passkey', async () => {
    const { sesame, fetch } = client();
    const response = answer(CREATION_OPTIONS.challenge);
    expect(await sesame.verifyPasskeyRegistration(signedIn(), { response })).toEqual({ passkeyId: 'pk-1', name: 'Chrome on macOS' });
    expect(sentTo(fetch, '/v1/passkey_direct/register/verify').body).toEqual({
      access_token: 'access-token-1',
      origin: 'https://app.example.com',
      response,
      userAgent: 'Chrome/1',
    });
  });

  it('needs a session, and throws Sesame’s refusal as a ProviderError', async () => {
    const { sesame, fetch } = client(
      passkeyFetch({
        '/v1/passkey_direct/register/options': {
          status: 403,
          body: { error: 'passkey_registration_not_allowed', error_description: 'Too late.' },
        },
      }),
    );
    await expect(sesame.passkeyRegistrationOptions(fakeRequest())).rejects.toMatchObject({ name: 'SesameError', code: 'invalid_token' });
    await expect(sesame.verifyPasskeyRegistration(fakeRequest(), { response: {} })).rejects.toBeInstanceOf(SesameError);
    expect(fetch.calls).toHaveLength(0);
    await expect(sesame.passkeyRegistrationOptions(signedIn())).rejects.toMatchObject({
      name: 'ProviderError',
      error: 'passkey_registration_not_allowed',
      status: 403,
    });
  });
});

describe("the user's own passkeys", () => {
  const PASSKEY = {
    id: '7d0c9a52-4f8e-4a51-9c8e-0b6f1f0a3e11',
    name: 'Chrome on macOS',
    deviceType: 'multiDevice',
    backedUp: true,
    rpId: 'shop.example.com',
    createdAt: '2026-11-28T10:00:00.000Z',
    lastUsedAt: null,
  };
  const signedIn = () => fakeRequest({ url: '/account', cookies: { sesame_session: 'access-token-1' } });

  it('lists them and removes one with the session’s access token as bearer', async () => {
    const { sesame, fetch } = client(
      passkeyFetch({ '/v1/passkeys': { status: 200, body: { data: [PASSKEY] } }, [`/v1/passkeys/${PASSKEY.id}`]: { status: 204 } }),
    );
    expect(await sesame.listPasskeys(signedIn())).toEqual([PASSKEY]);
    await sesame.removePasskey(signedIn(), PASSKEY.id);
    expect(fetch.calls.map((call) => [call.method, call.url.slice(BASE_URL.length), call.headers.authorization])).toEqual([
      ['GET', '/v1/passkeys', 'Bearer access-token-1'],
      ['DELETE', `/v1/passkeys/${PASSKEY.id}`, 'Bearer access-token-1'],
    ]);
  });

  it('needs a session, and throws a passkey that is not theirs as ProviderError not_found', async () => {
    const { sesame, fetch } = client();
    await expect(sesame.listPasskeys(fakeRequest())).rejects.toMatchObject({ name: 'SesameError', code: 'invalid_token' });
    expect(fetch.calls).toHaveLength(0);
    await expect(sesame.removePasskey(signedIn(), 'someone-elses')).rejects.toMatchObject({
      name: 'ProviderError',
      error: 'not_found',
      status: 404,
    });
  });
});
