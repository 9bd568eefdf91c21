import { createHash } from 'node:crypto';
import { base64url } from '@sesame/client-core';
import { createSesameNativeClient, SesameNativeClientOptions } from './client';
import { queryOf } from './encoding';
import { InvalidStateError, ProviderError, RateLimitedError } from './errors';
import { MemoryStorage } from './storage';

const BASE_URL = 'https://auth.example.com/api';
const REDIRECT_URI = 'com.example.notes:/callback';

type Call = { url: string; method: string; headers: Record<string, string>; body?: string };

function fakeFetch(answers: Partial<Record<string, { status: number; body?: unknown; headers?: Record<string, string> }>> = {}) {
  const calls: Call[] = [];
  const fetch = async (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => {
    calls.push({ url, ...init });
    const path = url.slice(BASE_URL.length);
    const answer = answers[path] ??
      {
        '/v1/verify': {
          status: 200,
          body: {
            access_token: 'native-token',
            id_token: 'x',
            expires_in: 3600,
            expires_at: new Date(Date.now() + 3_600_000).toISOString(),
            token_type: 'Bearer',
          },
        },
        '/v1/userinfo': {
          status: 200,
          body: { sub: 'u1', email: 'ada@example.com', email_verified: true, organization_id: 'o1', updated_at: 1_700_000_000 },
        },
        '/v1/revoke': { status: 200 },
      }[path] ?? { status: 404 };
    const headers = new Map(Object.entries(answer.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
    return {
      status: answer.status,
      headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null },
      text: async () => (answer.body === undefined ? '' : JSON.stringify(answer.body)),
    };
  };
  return Object.assign(fetch, { calls });
}

function client(options: Partial<SesameNativeClientOptions> = {}) {
  const storage = new MemoryStorage();
  const fetch = fakeFetch();
  const sesame = createSesameNativeClient({
    baseUrl: BASE_URL,
    clientId: 'native-client',
    redirectUri: REDIRECT_URI,
    storage,
    fetch,
    sleep: async () => undefined,
    ...options,
  });
  return { sesame, storage, fetch: (options.fetch as ReturnType<typeof fakeFetch>) ?? fetch };
}

describe('queryOf (no URL)', () => {
  it('parses query strings, first value of each name', () => {
    expect(queryOf('com.example.notes:/callback?code=a%2Bb&state=x+y&state=ignored#frag')).toEqual({ code: 'a+b', state: 'x y' });
  });
});

describe('startLogin', () => {
  it('returns the hosted page URL with a random state and an S256 challenge of the stored verifier', async () => {
    const { sesame, storage } = client();
    const url = await sesame.startLogin({ loginHint: 'ada@example.com', uiLocales: 'de' });
    expect(url.startsWith(`${BASE_URL}/v1/authorize?`)).toBe(true);
    const query = queryOf(url);
    expect(query).toEqual({
      response_type: 'code',
      client_id: 'native-client',
      redirect_uri: REDIRECT_URI,
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
      login_hint: 'ada@example.com',
      ui_locales: 'de',
    });
    const [pending] = JSON.parse((await storage.getItem('sesame.pending'))!);
    expect(pending.state).toBe(query.state);
    expect(createHash('sha256').update(pending.verifier).digest('base64url')).toBe(query.code_challenge);
  });

  it('uses the crypto functions it is given (for React Native without WebCrypto)', async () => {
    const sha256 = jest.fn(async (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest()));
    const getRandomValues = jest.fn((array: Uint8Array) => array.fill(7));
    const { sesame } = client({ crypto: { sha256, getRandomValues } });
    const query = queryOf(await sesame.startLogin());
    expect(query.state).toBe(base64url(new Uint8Array(32).fill(7)));
    expect(sha256).toHaveBeenCalledTimes(1);
  });
});

describe('handleRedirect', () => {
  it('exchanges the code with the verifier and client_id only, stores the token and returns the user', async () => {
    const { sesame, storage, fetch } = client();
    const { state } = queryOf(await sesame.startLogin());
    const user = await sesame.handleRedirect(`${REDIRECT_URI}?code=the-code&state=${state}`);
    expect(user).toMatchObject({ id: 'u1', email: 'ada@example.com' });
    const verify = fetch.calls.find((call) => call.url.endsWith('/v1/verify'))!;
    expect(verify.headers.authorization).toBeUndefined();
    expect(queryOf(`?${verify.body}`)).toEqual({
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: REDIRECT_URI,
      code_verifier: expect.any(String),
      client_id: 'native-client',
    });
    expect(await sesame.getAccessToken()).toBe('native-token');
    expect(await sesame.getAuthorizationHeader()).toEqual({ Authorization: 'Bearer native-token' });
    expect(await storage.getItem('sesame.pending')).toBeNull();
  });

  it('aborts on a state it did not start, without exchanging', async () => {
    const { sesame, fetch } = client();
    await sesame.startLogin();
    await expect(sesame.handleRedirect(`${REDIRECT_URI}?code=c&state=forged`)).rejects.toBeInstanceOf(InvalidStateError);
    expect(fetch.calls).toHaveLength(0);
    expect(await sesame.getAccessToken()).toBeNull();
  });

  it('throws the error of an error redirect', async () => {
    const { sesame } = client();
    const { state } = queryOf(await sesame.startLogin());
    await expect(sesame.handleRedirect(`${REDIRECT_URI}?error=access_denied&error_description=Blocked&state=${state}`)).rejects.toEqual(
      new ProviderError('access_denied', 'Blocked'),
    );
  });

  it('refuses a URL that is not its redirect URI', async () => {
    const { sesame } = client();
    expect(sesame.isRedirect(`${REDIRECT_URI}?code=c`)).toBe(true);
    expect(sesame.isRedirect('com.example.other:/callback?code=c')).toBe(false);
    await expect(sesame.handleRedirect('https://evil.example/callback?code=c&state=s')).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('retries a 429 with exponential backoff, never sooner than Retry-After', async () => {
    const fetch = limitedOnVerify(2, '1');
    const sleep = jest.fn(async (_ms: number) => undefined);
    const { sesame } = client({ fetch, sleep });
    const { state } = queryOf(await sesame.startLogin());
    await sesame.handleRedirect(`${REDIRECT_URI}?code=c&state=${state}`);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1000, 1000]);
  });

  it('spreads retries of a 429 without Retry-After over the upper half of each backoff (jitter)', async () => {
    const random = jest.spyOn(Math, 'random').mockReturnValue(0);
    try {
      const sleep = jest.fn(async (_ms: number) => undefined);
      const { sesame } = client({ fetch: limitedOnVerify(3, null), sleep });
      const { state } = queryOf(await sesame.startLogin());
      await sesame.handleRedirect(`${REDIRECT_URI}?code=c&state=${state}`);
      expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([250, 500, 1000]);
    } finally {
      random.mockRestore();
    }
  });

  it('throws a RateLimitedError with allowedDate and Retry-After, and does not retry a wait Sesame dated', async () => {
    const fetch = limitedOnVerify(1, '42', { code: 'rate_limited', allowedDate: '2030-01-01T00:01:00.000Z' });
    const sleep = jest.fn(async (_ms: number) => undefined);
    const { sesame } = client({ fetch, sleep });
    const { state } = queryOf(await sesame.startLogin());
    const failure = sesame.handleRedirect(`${REDIRECT_URI}?code=c&state=${state}`);
    await expect(failure).rejects.toBeInstanceOf(RateLimitedError);
    await expect(failure).rejects.toMatchObject({
      code: 'rate_limited',
      allowedDate: new Date('2030-01-01T00:01:00.000Z'),
      retryAfter: 42,
    });
    expect(sleep).not.toHaveBeenCalled();
  });
});

/** The default fake fetch, but /v1/verify answers 429 the first `times` times. */
function limitedOnVerify(times: number, retryAfter: string | null, body?: unknown) {
  let limited = times;
  const base = fakeFetch();
  return Object.assign(
    async (url: string, init: Parameters<typeof base>[1]) => {
      if (url.endsWith('/v1/verify') && limited-- > 0) {
        return {
          status: 429,
          headers: { get: (name: string) => (name === 'retry-after' ? retryAfter : null) },
          text: async () => (body === undefined ? '' : JSON.stringify(body)),
        };
      }
      return base(url, init);
    },
    { calls: base.calls },
  );
}

describe('session', () => {
  it('forgets an expired token', async () => {
    const { sesame, storage } = client();
    await storage.setItem('sesame.session', JSON.stringify({ accessToken: 't', expiresAt: new Date(Date.now() - 1000).toISOString() }));
    expect(await sesame.getAccessToken()).toBeNull();
    expect(storage.keys()).toEqual([]);
  });

  it('logout removes the token and revokes it with the client id', async () => {
    const { sesame, storage, fetch } = client();
    const { state } = queryOf(await sesame.startLogin());
    await sesame.handleRedirect(`${REDIRECT_URI}?code=c&state=${state}`);
    expect(await sesame.logout()).toEqual({ revoked: true });
    expect(queryOf(`?${fetch.calls.at(-1)!.body}`)).toEqual({
      token: 'native-token',
      token_type_hint: 'access_token',
      client_id: 'native-client',
    });
    expect(storage.keys()).toEqual([]);
    expect(await sesame.getUser()).toBeNull();
  });

  it('login() opens the page through openAuthSession, and a cancel is an error', async () => {
    const openAuthSession = jest.fn(async (url: string) => `${REDIRECT_URI}?code=c&state=${queryOf(url).state}`);
    const { sesame } = client({ openAuthSession });
    expect(await sesame.login()).toMatchObject({ email: 'ada@example.com' });
    expect(openAuthSession).toHaveBeenCalledWith(expect.stringContaining('/v1/authorize?'), REDIRECT_URI);
    const cancelled = client({ openAuthSession: async () => null });
    await expect(cancelled.sesame.login()).rejects.toMatchObject({ code: 'cancelled' });
  });
});
