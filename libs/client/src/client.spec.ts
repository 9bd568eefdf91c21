import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { createSesameClient, SesameClientOptions } from './client';
import { InvalidStateError, ProviderError, RateLimitedError, SesameError } from './errors';
import { createSignedState } from './state';
import { BASE_URL, CLIENT_ID, CLIENT_SECRET, FakeResponse, fakeRequest, formOf, sesameFetch, USERINFO } from './testing/fakes';
import { redirectResponse } from './types';

function client(fetch = sesameFetch(), options: Partial<SesameClientOptions> = {}) {
  return {
    fetch,
    sesame: createSesameClient({
      baseUrl: BASE_URL,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      fetch,
      sleep: async () => undefined,
      ...options,
    }),
  };
}

/** Starts a login on https://app.example.com and returns the login cookie and what was sent to Sesame. */
async function startLogin(
  sesame: ReturnType<typeof client>['sesame'],
  fetch: ReturnType<typeof sesameFetch>,
  init: Parameters<typeof fakeRequest>[0] = {},
) {
  const res = new FakeResponse();
  const attempt = await sesame.authenticateDirect(fakeRequest({ url: '/signin', ...init }), res, { email: 'ada@example.com' });
  const sent = JSON.parse(fetch.calls.find((call) => call.url.endsWith('/v1/authenticate_direct'))!.body!);
  return { attempt, sent, loginCookie: res.cookieValue('sesame_login')!, res };
}

describe('authenticateDirect', () => {
  it('sends the e-mail, the callback URL, a signed state and a PKCE challenge with Basic client authentication, and returns the attempt', async () => {
    const { sesame, fetch } = client();
    const { attempt, sent } = await startLogin(sesame, fetch, { headers: { referer: 'https://app.example.com/account?tab=2' } });
    const call = fetch.calls[0];
    expect(call.method).toBe('POST');
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers.authorization).toBe(`Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`);
    expect(sent).toEqual({
      email: 'ada@example.com',
      redirect_uri: 'https://app.example.com/callback',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    expect(sesame.verifyState(sent.state)).toBe(true);
    expect(attempt).toEqual({
      loginAttemptId: 'attempt-1',
      token: 'hash',
      sentence: 'Brave otters sing',
      approvalNumber: '42',
      allowedDate: new Date('2030-01-01T00:00:15.000Z'),
      state: sent.state,
      redirectUri: 'https://app.example.com/callback',
      returnTo: 'https://app.example.com/account?tab=2',
    });
  });

  it('passes a given state and translations through unchanged', async () => {
    const { sesame, fetch } = client();
    await sesame.authenticateDirect(fakeRequest(), new FakeResponse(), {
      email: 'ada@example.com',
      state: 'my-own-state',
      translations: { subject: 'Ihr Link' },
    });
    expect(JSON.parse(fetch.calls[0].body!)).toMatchObject({ state: 'my-own-state', translations: { subject: 'Ihr Link' } });
  });

  it('passes on the end user’s browser and address, for a person approving from another device', async () => {
    const { sesame, fetch } = client(sesameFetch(), { trustProxy: true });
    const req = {
      ...fakeRequest({ headers: { 'user-agent': 'Firefox/1.0', 'x-forwarded-for': '198.51.100.9' } }),
      socket: { encrypted: true, remoteAddress: '10.0.0.2' },
    };
    await sesame.authenticateDirect(req, new FakeResponse(), { email: 'ada@example.com' });
    expect(JSON.parse(fetch.calls[0].body!)).toMatchObject({ userAgent: 'Firefox/1.0', userIp: '198.51.100.9' });
  });

  it('requires an e-mail address', async () => {
    const { sesame, fetch } = client();
    await expect(sesame.authenticateDirect(fakeRequest(), new FakeResponse(), { email: '  ' })).rejects.toThrow(SesameError);
    expect(fetch.calls).toHaveLength(0);
  });

  it('keeps state, verifier and return address in a short-lived HttpOnly, Secure, SameSite=Lax cookie', async () => {
    const { sesame, fetch } = client();
    const { res } = await startLogin(sesame, fetch);
    expect(res.cookie('sesame_login')).toMatch(
      /^sesame_login=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}; Path=\/; Max-Age=1800; HttpOnly; Secure; SameSite=Lax$/,
    );
    expect(res.cookie('sesame_session')).toBeUndefined();
  });

  it('sets no cookie when Sesame refuses', async () => {
    const { sesame } = client(
      sesameFetch({
        authenticate_direct: { status: 400, body: { error: 'invalid_request', error_description: 'redirect_uri is not allowed' } },
      }),
    );
    const res = new FakeResponse();
    const failure = sesame.authenticateDirect(fakeRequest(), res, { email: 'ada@example.com' });
    await expect(failure).rejects.toMatchObject({
      name: 'ProviderError',
      error: 'invalid_request',
      errorDescription: 'redirect_uri is not allowed',
      status: 400,
    });
    expect(res.setCookies).toEqual([]);
  });
});

describe('callback', () => {
  it('checks the state against the login cookie, exchanges the code with the verifier, sets the session cookie and redirects to the return address', async () => {
    const { sesame, fetch } = client();
    const { sent, loginCookie } = await startLogin(sesame, fetch, { url: '/signin?return_to=%2Fdashboard' });
    const res = new FakeResponse();
    const result = await sesame.callback(
      fakeRequest({ url: `/callback?code=the-code&state=${encodeURIComponent(sent.state)}`, cookies: { sesame_login: loginCookie } }),
      res,
    );

    const verify = fetch.calls.find((call) => call.url === `${BASE_URL}/v1/verify`)!;
    expect(verify.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(verify.headers.authorization).toMatch(/^Basic /);
    const form = formOf(verify);
    expect(form).toEqual({
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: 'https://app.example.com/callback',
      code_verifier: expect.any(String),
    });
    // The verifier is the one the challenge was made from.
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(form.code_verifier).digest('base64url')).toBe(sent.code_challenge);

    const userinfo = fetch.calls.find((call) => call.url === `${BASE_URL}/v1/userinfo`)!;
    expect(userinfo.headers.authorization).toBe('Bearer access-token-1');
    expect(result.user).toEqual({
      id: USERINFO.sub,
      email: 'ada@example.com',
      emailVerified: true,
      name: 'Ada',
      organizationId: USERINFO.organization_id,
      updatedAt: new Date(1_700_000_000_000),
    });
    expect(result).toMatchObject({ state: sent.state, autologin: false, expiresAt: new Date('2030-02-01T00:00:00.000Z') });
    expect(res.statusCode).toBe(303);
    expect(res.getHeader('location')).toBe('https://app.example.com/dashboard');
    // The finished login is dropped from the login cookie.
    expect(res.cookie('sesame_login')).toMatch(
      /^sesame_login=; Path=\/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax$/,
    );
  });

  it('stores the access token in an HttpOnly, Secure, SameSite=Lax cookie that lives as long as the token', async () => {
    const { sesame, fetch } = client();
    const { sent, loginCookie } = await startLogin(sesame, fetch);
    const res = new FakeResponse();
    await sesame.callback(fakeRequest({ url: `/callback?code=c&state=${sent.state}`, cookies: { sesame_login: loginCookie } }), res);
    expect(res.cookie('sesame_session')).toBe('sesame_session=access-token-1; Path=/; Max-Age=2592000; HttpOnly; Secure; SameSite=Lax');
  });

  it('uses the configured cookie names, path and domain', async () => {
    const { sesame, fetch } = client(sesameFetch(), {
      cookies: { session: 'sid', login: 'pending', path: '/app', domain: 'example.com' },
      loginTimeoutSeconds: 900,
    });
    const res = new FakeResponse();
    const attempt = await sesame.authenticateDirect(fakeRequest(), res, { email: 'ada@example.com' });
    expect(res.cookie('pending')).toMatch(/; Path=\/app; Max-Age=900; Domain=example.com; HttpOnly; Secure; SameSite=Lax$/);
    const callbackRes = new FakeResponse();
    await sesame.callback(
      fakeRequest({ url: `/callback?code=c&state=${attempt.state}`, cookies: { pending: res.cookieValue('pending')! } }),
      callbackRes,
    );
    expect(callbackRes.cookie('sid')).toBe(
      'sid=access-token-1; Path=/app; Max-Age=2592000; Domain=example.com; HttpOnly; Secure; SameSite=Lax',
    );
    expect(fetch.calls.map((call) => call.url.slice(BASE_URL.length))).toEqual(['/v1/authenticate_direct', '/v1/verify', '/v1/userinfo']);
  });

  it('aborts on a state that does not match the login cookie, without exchanging the code', async () => {
    const { sesame, fetch } = client();
    const { loginCookie } = await startLogin(sesame, fetch);
    const other = createSignedState(CLIENT_SECRET); // even a validly signed state must be the one this browser started with
    const res = new FakeResponse();
    const failure = sesame.callback(fakeRequest({ url: `/callback?code=c&state=${other}`, cookies: { sesame_login: loginCookie } }), res);
    await expect(failure).rejects.toBeInstanceOf(InvalidStateError);
    await expect(failure).rejects.toMatchObject({ reason: 'unknown_state', code: 'invalid_state' });
    expect(fetch.calls.map((call) => call.url)).toEqual([`${BASE_URL}/v1/authenticate_direct`]);
    expect(res.setCookies).toEqual([]);
    expect(res.writableEnded).toBe(false);
  });

  it('aborts without a login cookie, and with a forged or tampered one', async () => {
    const { sesame, fetch } = client();
    const { sent, loginCookie } = await startLogin(sesame, fetch);
    const tampered = `${loginCookie.slice(0, -2)}AA`;
    for (const cookies of [undefined, { sesame_login: tampered }, { sesame_login: 'garbage' }]) {
      await expect(
        sesame.callback(fakeRequest({ url: `/callback?code=c&state=${sent.state}`, cookies }), new FakeResponse()),
      ).rejects.toMatchObject({ reason: 'unknown_state' });
    }
    // A cookie signed with another application's secret is ignored too.
    const stranger = client(sesameFetch(), { clientSecret: 'another-secret-0123456789abcdefghijklmnopqrstuv' });
    const theirs = await startLogin(stranger.sesame, stranger.fetch);
    await expect(
      sesame.callback(
        fakeRequest({ url: `/callback?code=c&state=${theirs.sent.state}`, cookies: { sesame_login: theirs.loginCookie } }),
        new FakeResponse(),
      ),
    ).rejects.toBeInstanceOf(InvalidStateError);
    expect(fetch.calls.filter((call) => call.url.endsWith('/v1/verify'))).toHaveLength(0);
  });

  it('aborts when the login cookie has expired', async () => {
    const { sesame, fetch } = client(sesameFetch(), { loginTimeoutSeconds: 60 });
    const realNow = Date.now;
    const { sent, loginCookie } = await startLogin(sesame, fetch);
    try {
      Date.now = () => realNow() + 61_000;
      await expect(
        sesame.callback(
          fakeRequest({ url: `/callback?code=c&state=${sent.state}`, cookies: { sesame_login: loginCookie } }),
          new FakeResponse(),
        ),
      ).rejects.toMatchObject({
        reason: 'unknown_state',
      });
    } finally {
      Date.now = realNow;
    }
  });

  it('accepts any of the last three logins started in this browser (a second link does not break the first)', async () => {
    const { sesame, fetch } = client();
    const first = await startLogin(sesame, fetch);
    const res = new FakeResponse();
    const second = await sesame.authenticateDirect(fakeRequest({ cookies: { sesame_login: first.loginCookie } }), res, {
      email: 'ada@example.com',
    });
    const both = res.cookieValue('sesame_login')!;
    for (const state of [first.sent.state, second.state]) {
      await expect(
        sesame.callback(fakeRequest({ url: `/callback?code=c&state=${state}`, cookies: { sesame_login: both } }), new FakeResponse()),
      ).resolves.toMatchObject({ state });
    }
  });

  it('throws a ProviderError with the code and description of an error callback', async () => {
    const { sesame, fetch } = client();
    const { sent, loginCookie } = await startLogin(sesame, fetch);
    const res = new FakeResponse();
    const failure = sesame.callback(
      fakeRequest({
        url: `/callback?error=login_link_expired&error_description=The+link+has+expired&state=${sent.state}`,
        cookies: { sesame_login: loginCookie },
      }),
      res,
    );
    await expect(failure).rejects.toBeInstanceOf(ProviderError);
    await expect(failure).rejects.toMatchObject({ error: 'login_link_expired', errorDescription: 'The link has expired', status: null });
    expect(res.cookie('sesame_login')).toMatch(/^sesame_login=; /); // that login is over
    expect(fetch.calls.filter((call) => call.url.endsWith('/v1/verify'))).toHaveLength(0);
  });

  it('throws a ProviderError when the exchange fails', async () => {
    const { sesame, fetch } = client(
      sesameFetch({ verify: { status: 400, body: { error: 'invalid_grant', error_description: 'The code was already used' } } }),
    );
    const { sent, loginCookie } = await startLogin(sesame, fetch);
    const res = new FakeResponse();
    await expect(
      sesame.callback(fakeRequest({ url: `/callback?code=c&state=${sent.state}`, cookies: { sesame_login: loginCookie } }), res),
    ).rejects.toMatchObject({
      name: 'ProviderError',
      error: 'invalid_grant',
      status: 400,
    });
    expect(res.cookie('sesame_session')).toBeUndefined();
  });

  it('rejects a callback without state or code', async () => {
    const { sesame } = client();
    await expect(sesame.callback(fakeRequest({ url: '/callback?code=c' }), new FakeResponse())).rejects.toMatchObject({
      reason: 'missing_state',
    });
    await expect(sesame.callback(fakeRequest({ url: '/callback?state=s' }), new FakeResponse())).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });
});

describe('callback hooks', () => {
  it('onStateReceived returning false aborts before the exchange, even for the right state', async () => {
    const { sesame, fetch } = client();
    const { sent, loginCookie } = await startLogin(sesame, fetch);
    const onStateReceived = jest.fn(() => false);
    const onAfterCallback = jest.fn();
    const req = fakeRequest({ url: `/callback?code=c&state=${sent.state}`, cookies: { sesame_login: loginCookie } });
    await expect(sesame.callback(req, new FakeResponse(), { onStateReceived, onAfterCallback })).rejects.toMatchObject({
      name: 'InvalidStateError',
      reason: 'rejected',
    });
    expect(onStateReceived).toHaveBeenCalledWith(req, sent.state);
    expect(onAfterCallback).not.toHaveBeenCalled();
    expect(fetch.calls.filter((call) => call.url.endsWith('/v1/verify'))).toHaveLength(0);
  });

  it('onStateReceived returning true replaces the cookie check (an app with its own state store)', async () => {
    const { sesame, fetch } = client();
    const onStateReceived = jest.fn(async (_req: unknown, state: string) => state === 'state-from-my-store');
    const res = new FakeResponse();
    await sesame.callback(fakeRequest({ url: '/callback?code=c&state=state-from-my-store' }), res, { onStateReceived });
    // Without a login cookie there is no verifier: the code is exchanged with the callback URL alone.
    expect(formOf(fetch.calls.find((call) => call.url.endsWith('/v1/verify'))!)).toEqual({
      grant_type: 'authorization_code',
      code: 'c',
      redirect_uri: 'https://app.example.com/callback',
    });
    expect(res.getHeader('location')).toBe('https://app.example.com/');
  });

  it('onAfterCallback gets the request, the response and the user, and its replacement response is sent', async () => {
    const { sesame, fetch } = client();
    const { sent, loginCookie } = await startLogin(sesame, fetch);
    const req = fakeRequest({ url: `/callback?code=c&state=${sent.state}`, cookies: { sesame_login: loginCookie } });
    const res = new FakeResponse();
    const onAfterCallback = jest.fn(() => ({
      status: 200,
      headers: { 'Content-Type': 'text/plain', 'Set-Cookie': 'welcome=1; Path=/' },
      body: 'Welcome, Ada',
    }));
    await sesame.callback(req, res, { onAfterCallback });
    expect(onAfterCallback).toHaveBeenCalledWith(req, res, expect.objectContaining({ email: 'ada@example.com' }), {
      state: sent.state,
      autologin: false,
      continueUrl: null,
      returnTo: 'https://app.example.com/',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('Welcome, Ada');
    expect(res.getHeader('content-type')).toBe('text/plain');
    expect(res.getHeader('location')).toBeUndefined();
    // The session cookie is kept next to the hook's own cookie.
    expect(res.cookie('sesame_session')).toMatch(/^sesame_session=access-token-1;/);
    expect(res.cookie('welcome')).toBe('welcome=1; Path=/');
  });

  it('a redirectResponse from onAfterCallback replaces the default redirect', async () => {
    const { sesame, fetch } = client();
    const { sent, loginCookie } = await startLogin(sesame, fetch);
    const res = new FakeResponse();
    await sesame.callback(fakeRequest({ url: `/callback?code=c&state=${sent.state}`, cookies: { sesame_login: loginCookie } }), res, {
      onAfterCallback: () => redirectResponse('/welcome'),
    });
    expect(res.statusCode).toBe(303);
    expect(res.getHeader('location')).toBe('/welcome');
  });

  it('leaves the response alone when onAfterCallback answered itself', async () => {
    const { sesame, fetch } = client();
    const { sent, loginCookie } = await startLogin(sesame, fetch);
    const res = new FakeResponse();
    await sesame.callback(fakeRequest({ url: `/callback?code=c&state=${sent.state}`, cookies: { sesame_login: loginCookie } }), res, {
      onAfterCallback: (_req, response) => {
        response.statusCode = 201;
        response.end('done by the app');
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.body).toBe('done by the app');
    expect(res.getHeader('location')).toBeUndefined();
  });
});

describe('autologin stops', () => {
  const continueUrl = `${BASE_URL}/v1/autologin?token=${'t'.repeat(43)}`;
  const stopUrl = (state: string, next = continueUrl) =>
    `/callback?code=walk-code&state=${encodeURIComponent(state)}&autologin_continue=${encodeURIComponent(next)}`;
  const walker = () => client(sesameFetch(), { autologin: true });

  it('without the autologin option, autologin_continue changes nothing: a signed state alone is refused and nothing is exchanged (login CSRF)', async () => {
    const { sesame, fetch } = client();
    const state = createSignedState(CLIENT_SECRET);
    await expect(sesame.callback(fakeRequest({ host: 'shop.example.com', url: stopUrl(state) }), new FakeResponse())).rejects.toMatchObject(
      { reason: 'unknown_state' },
    );
    expect(fetch.calls).toHaveLength(0);
  });

  it('with the autologin option: verifies the signed state without a login cookie, exchanges as a walk’s code (autologin=true, no verifier) for the callback URL, and continues the walk', async () => {
    const { sesame, fetch } = walker();
    const state = createSignedState(CLIENT_SECRET);
    const res = new FakeResponse();
    const onAfterCallback = jest.fn();
    const result = await sesame.callback(fakeRequest({ host: 'shop.example.com', url: stopUrl(state) }), res, { onAfterCallback });
    expect(formOf(fetch.calls.find((call) => call.url.endsWith('/v1/verify'))!)).toEqual({
      grant_type: 'authorization_code',
      code: 'walk-code',
      redirect_uri: 'https://shop.example.com/callback',
      autologin: 'true',
    });
    expect(result.autologin).toBe(true);
    expect(onAfterCallback).toHaveBeenCalledWith(expect.anything(), res, expect.objectContaining({ email: 'ada@example.com' }), {
      state,
      autologin: true,
      continueUrl,
      returnTo: null,
    });
    expect(res.cookie('sesame_session')).toMatch(/^sesame_session=access-token-1; .*HttpOnly; Secure; SameSite=Lax$/);
    expect(res.statusCode).toBe(303);
    expect(res.getHeader('location')).toBe(continueUrl);
  });

  it('keeps the callback URL’s own query parameters in the redirect_uri', async () => {
    const { sesame, fetch } = walker();
    const state = createSignedState(CLIENT_SECRET);
    await sesame.callback(
      fakeRequest({
        host: 'shop.example.com',
        url: `/auth/cb?tenant=a%20b&code=c&state=${state}&autologin_continue=${encodeURIComponent(continueUrl)}`,
      }),
      new FakeResponse(),
    );
    expect(formOf(fetch.calls.find((call) => call.url.endsWith('/v1/verify'))!).redirect_uri).toBe(
      'https://shop.example.com/auth/cb?tenant=a%20b',
    );
  });

  it('aborts on a state this application did not sign, or one too old', async () => {
    const { sesame, fetch } = walker();
    const foreign = createSignedState('someone-elses-secret-0123456789abcdefghijklmnop');
    const old = createSignedState(CLIENT_SECRET, Date.now() - (1800 + 600 + 5) * 1000);
    for (const state of [foreign, old, 'plain-state']) {
      await expect(
        sesame.callback(fakeRequest({ host: 'shop.example.com', url: stopUrl(state) }), new FakeResponse()),
      ).rejects.toMatchObject({ reason: 'bad_signature' });
    }
    expect(fetch.calls).toHaveLength(0);
  });

  it('calls onStateReceived on the stop too, and follows its answer', async () => {
    const { sesame } = walker();
    const onStateReceived = jest.fn(() => true);
    const res = new FakeResponse();
    await sesame.callback(fakeRequest({ host: 'shop.example.com', url: stopUrl('app-made-state') }), res, { onStateReceived });
    expect(onStateReceived).toHaveBeenCalledWith(expect.anything(), 'app-made-state');
    expect(res.getHeader('location')).toBe(continueUrl);
  });

  it('refuses a continuation that is not Sesame’s /v1/autologin, before exchanging anything', async () => {
    const { sesame, fetch } = walker();
    const state = createSignedState(CLIENT_SECRET);
    for (const next of [
      'https://evil.example/v1/autologin?token=x',
      'https://auth.example.com/api/v1/autologinx?token=x',
      'https://auth.example.com/other/v1/autologin?token=x',
      'https://auth.example.com.evil.example/api/v1/autologin',
      'javascript:alert(1)',
    ]) {
      await expect(
        sesame.callback(fakeRequest({ host: 'shop.example.com', url: stopUrl(state, next) }), new FakeResponse()),
      ).rejects.toMatchObject({ code: 'invalid_request' });
    }
    expect(fetch.calls).toHaveLength(0);
  });
});

describe('getUser, middleware and logout', () => {
  it('getUser reads the session cookie and asks Sesame; no cookie or a rejected token is no user', async () => {
    const { sesame, fetch } = client();
    expect(await sesame.getUser(fakeRequest())).toBeNull();
    expect(fetch.calls).toHaveLength(0);
    expect(await sesame.getUser(fakeRequest({ cookies: { sesame_session: 'access-token-1' } }))).toMatchObject({
      email: 'ada@example.com',
    });
    const rejected = client(sesameFetch({ userinfo: { status: 401, body: { error: 'invalid_token', error_description: 'revoked' } } }));
    expect(await rejected.sesame.getUser(fakeRequest({ cookies: { sesame_session: 'old' } }))).toBeNull();
  });

  it('the middleware attaches the user to req and res.locals, and clears a rejected session cookie', async () => {
    const { sesame } = client();
    const req = fakeRequest({ cookies: { sesame_session: 'access-token-1' } }) as ReturnType<typeof fakeRequest> & { user?: unknown };
    const res = Object.assign(new FakeResponse(), { locals: {} as Record<string, unknown> });
    await new Promise<void>((resolve, reject) => sesame.middleware()(req, res, (error?: unknown) => (error ? reject(error) : resolve())));
    expect(req.user).toMatchObject({ email: 'ada@example.com' });
    expect(res.locals.user).toBe(req.user);

    const rejected = client(sesameFetch({ userinfo: { status: 401 } }));
    const staleReq = fakeRequest({ cookies: { sesame_session: 'old' } }) as ReturnType<typeof fakeRequest> & { user?: unknown };
    const staleRes = new FakeResponse();
    await new Promise<void>((resolve) => rejected.sesame.middleware()(staleReq, staleRes, () => resolve()));
    expect(staleReq.user).toBeNull();
    expect(staleRes.cookie('sesame_session')).toMatch(/^sesame_session=; Path=\/; Max-Age=0;/);
  });

  it('the middleware passes Sesame failures to next', async () => {
    const { sesame } = client(sesameFetch({ userinfo: { status: 500, body: { error: 'server_error', error_description: 'boom' } } }));
    const error = await new Promise((resolve) =>
      sesame.middleware()(fakeRequest({ cookies: { sesame_session: 't' } }), new FakeResponse(), resolve),
    );
    expect(error).toMatchObject({ name: 'ProviderError', error: 'server_error', status: 500 });
  });

  it('logout clears the session cookie and revokes the token', async () => {
    const { sesame, fetch } = client();
    const res = new FakeResponse();
    expect(await sesame.logout(fakeRequest({ cookies: { sesame_session: 'access-token-1' } }), res)).toEqual({ revoked: true });
    expect(res.cookie('sesame_session')).toBe(
      'sesame_session=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
    );
    const revoke = fetch.calls.find((call) => call.url.endsWith('/v1/revoke'))!;
    expect(revoke.headers.authorization).toMatch(/^Basic /);
    expect(formOf(revoke)).toEqual({ token: 'access-token-1', token_type_hint: 'access_token' });

    const signedOut = new FakeResponse();
    expect(await sesame.logout(fakeRequest(), signedOut)).toEqual({ revoked: false });
    expect(signedOut.cookie('sesame_session')).toMatch(/Max-Age=0/);
  });
});

describe('429 handling', () => {
  it('throws RateLimitedError with allowedDate and Retry-After when the address must wait, without retrying', async () => {
    const fetch = sesameFetch({
      authenticate_direct: { status: 429, body: { allowedDate: '2030-01-01T00:01:00.000Z' }, headers: { 'Retry-After': '42' } },
    });
    const sleep = jest.fn(async () => undefined);
    const { sesame } = client(fetch, { sleep });
    const res = new FakeResponse();
    const failure = sesame.authenticateDirect(fakeRequest(), res, { email: 'ada@example.com' });
    await expect(failure).rejects.toBeInstanceOf(RateLimitedError);
    await expect(failure).rejects.toMatchObject({
      code: 'rate_limited',
      allowedDate: new Date('2030-01-01T00:01:00.000Z'),
      retryAfter: 42,
    });
    expect(fetch.calls).toHaveLength(1);
    expect(sleep).not.toHaveBeenCalled();
    expect(res.setCookies).toEqual([]);
  });

  it('retries a rate-limited request with exponential backoff, at least Retry-After, and then succeeds', async () => {
    let answered = 0;
    const fetch = sesameFetch();
    const limited = Object.assign(
      async (url: string, init: Parameters<typeof fetch>[1]) => {
        if (url.endsWith('/v1/authenticate_direct') && answered++ < 3)
          return fetch(url, init).then(() => limitedAnswer(answered === 2 ? '3' : null));
        return fetch(url, init);
      },
      { calls: fetch.calls },
    );
    const sleep = jest.fn(async (_ms: number) => undefined);
    const sesame = createSesameClient({
      baseUrl: BASE_URL,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      fetch: limited,
      sleep,
      retry: { jitter: false },
    });
    const attempt = await sesame.authenticateDirect(fakeRequest(), new FakeResponse(), { email: 'ada@example.com' });
    expect(attempt.sentence).toBe('Brave otters sing');
    // 500 ms, then 1 s raised to Retry-After's 3 s, then 2 s.
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([500, 3000, 2000]);
    expect(fetch.calls).toHaveLength(4);
  });

  it('gives up after the configured retries with a RateLimitedError carrying Retry-After', async () => {
    const fetch = sesameFetch({
      verify: { status: 429, body: { error: 'rate_limited', error_description: 'Too many requests' }, headers: { 'Retry-After': '1' } },
    });
    const sleep = jest.fn(async (_ms: number) => undefined);
    const { sesame } = client(fetch, { sleep, retry: { retries: 2, jitter: false } });
    const { sent, loginCookie } = await startLogin(sesame, fetch);
    const failure = sesame.callback(
      fakeRequest({ url: `/callback?code=c&state=${sent.state}`, cookies: { sesame_login: loginCookie } }),
      new FakeResponse(),
    );
    await expect(failure).rejects.toMatchObject({ name: 'RateLimitedError', allowedDate: null, retryAfter: 1 });
    expect(fetch.calls.filter((call) => call.url.endsWith('/v1/verify'))).toHaveLength(3);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1000, 1000]);
  });

  it('does not wait longer than maxDelayMs: a long Retry-After is thrown at once', async () => {
    const fetch = sesameFetch({ userinfo: { status: 429, headers: { 'Retry-After': '3600' } } });
    const sleep = jest.fn(async () => undefined);
    const { sesame } = client(fetch, { sleep });
    await expect(sesame.getUser(fakeRequest({ cookies: { sesame_session: 't' } }))).rejects.toMatchObject({
      name: 'RateLimitedError',
      retryAfter: 3600,
    });
    expect(sleep).not.toHaveBeenCalled();
    expect(fetch.calls).toHaveLength(1);
  });
});

function limitedAnswer(retryAfter: string | null) {
  const headers = new Map(retryAfter ? [['retry-after', retryAfter]] : []);
  return {
    status: 429,
    headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null },
    text: async () => JSON.stringify({ error: 'rate_limited', error_description: 'Too many requests' }),
  };
}

describe('with plain node:http', () => {
  it('runs a whole login on a node:http server (no Express)', async () => {
    const fetch = sesameFetch();
    const sesame = createSesameClient({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, fetch });
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const path = req.url ?? '/';
      const handle = async () => {
        if (path.startsWith('/signin')) {
          const attempt = await sesame.authenticateDirect(req, res, { email: 'ada@example.com' });
          res.setHeader('Content-Type', 'application/json');
          res.end(JSON.stringify({ state: attempt.state, sentence: attempt.sentence }));
        } else if (path.startsWith('/callback')) {
          await sesame.callback(req, res);
        } else {
          const user = await sesame.getUser(req);
          res.end(user ? `Hello ${user.email}` : 'Signed out');
        }
      };
      handle().catch((error: Error) => {
        res.statusCode = 400;
        res.end(error.name);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const started = await globalThis.fetch(`${origin}/signin`, { method: 'POST' });
      const { state } = (await started.json()) as { state: string };
      const loginCookie = started.headers.getSetCookie()[0].split(';')[0];
      expect(JSON.parse(fetch.calls[0].body!).redirect_uri).toBe(`${origin}/callback`);

      const back = await globalThis.fetch(`${origin}/callback?code=c&state=${state}`, {
        headers: { cookie: loginCookie },
        redirect: 'manual',
      });
      expect(back.status).toBe(303);
      expect(back.headers.get('location')).toBe(`${origin}/`);
      const session = back.headers
        .getSetCookie()
        .find((cookie) => cookie.startsWith('sesame_session='))!
        .split(';')[0];
      expect(await (await globalThis.fetch(`${origin}/`, { headers: { cookie: session } })).text()).toBe('Hello ada@example.com');

      const forged = await globalThis.fetch(`${origin}/callback?code=c&state=${state}`, { redirect: 'manual' });
      expect(forged.status).toBe(400);
      expect(await forged.text()).toBe('InvalidStateError');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
