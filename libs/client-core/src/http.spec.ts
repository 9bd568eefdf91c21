import { SesameApi } from './api';
import { ProviderError, RateLimitedError, SesameError } from './errors';
import { HttpOptions, SesameHttp } from './http';
import { FetchInit } from './platform';
import { DEFAULT_RETRY } from './retry';

const BASE_URL = 'https://auth.example.com/api';

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

/** A fetch that answers from a script, one answer a call (the last one repeated), and records the calls. */
function scriptedFetch(...answers: Answer[]) {
  const calls: { url: string; init: FetchInit }[] = [];
  const fetch = async (url: string, init: FetchInit) => {
    calls.push({ url, init });
    const answer = answers[Math.min(calls.length, answers.length) - 1];
    const headers = new Map(Object.entries(answer.headers ?? {}));
    return {
      status: answer.status,
      headers: { get: (name: string) => headers.get(name) ?? null },
      text: async () => (answer.body === undefined ? '' : JSON.stringify(answer.body)),
    };
  };
  return Object.assign(fetch, { calls });
}

function http(fetch: HttpOptions['fetch'], options: Partial<HttpOptions> = {}) {
  const waits: number[] = [];
  const sleep = async (ms: number) => void waits.push(ms);
  return { http: new SesameHttp({ baseUrl: BASE_URL, fetch, retry: DEFAULT_RETRY, sleep, random: () => 0.5, ...options }), waits };
}

const limited = (retryAfter?: string): Answer => ({ status: 429, headers: retryAfter ? { 'retry-after': retryAfter } : {} });

describe('SesameHttp retries', () => {
  it('retries 429s with jittered exponential backoff from the random source, then answers', async () => {
    const fetch = scriptedFetch(limited(), limited(), limited(), { status: 200, body: { ok: true } });
    const { http: client, waits } = http(fetch);
    await expect(client.get('/v1/x')).resolves.toMatchObject({ status: 200, body: { ok: true } });
    // 500·2^n spread over [half, whole]: the middle for random() = 0.5.
    expect(waits).toEqual([375, 750, 1500]);
    expect(fetch.calls).toHaveLength(4);
  });

  it('waits at least Retry-After', async () => {
    const { http: client, waits } = http(scriptedFetch(limited('2'), { status: 204 }));
    await client.get('/v1/x');
    expect(waits).toEqual([2000]);
  });

  it('gives up after the retries with a RateLimitedError carrying Retry-After', async () => {
    const { http: client, waits } = http(scriptedFetch(limited('1')), { retry: { ...DEFAULT_RETRY, retries: 2 } });
    const failure = client.get('/v1/x');
    await expect(failure).rejects.toBeInstanceOf(RateLimitedError);
    await expect(failure).rejects.toMatchObject({ code: 'rate_limited', allowedDate: null, retryAfter: 1 });
    expect(waits).toEqual([1000, 1000]);
  });

  it('does not wait longer than maxDelayMs', async () => {
    const { http: client, waits } = http(scriptedFetch(limited('3600')));
    await expect(client.get('/v1/x')).rejects.toMatchObject({ name: 'RateLimitedError', retryAfter: 3600 });
    expect(waits).toEqual([]);
  });

  it('does not retry a refused login before its allowedDate', async () => {
    const fetch = scriptedFetch({
      status: 429,
      headers: { 'retry-after': '42' },
      body: { code: 'rate_limited', allowedDate: '2030-01-01T00:01:00.000Z' },
    });
    const { http: client, waits } = http(fetch);
    await expect(client.postJson('/v1/authenticate_direct', {})).rejects.toMatchObject({
      allowedDate: new Date('2030-01-01T00:01:00.000Z'),
      retryAfter: 42,
    });
    expect(waits).toEqual([]);
    expect(fetch.calls).toHaveLength(1);
  });
});

describe('SesameHttp retries what Sesame did nothing with', () => {
  const unavailable = (retryAfter?: string): Answer => ({
    status: 503,
    body: { error: 'temporarily_unavailable' },
    headers: retryAfter ? { 'retry-after': retryAfter } : {},
  });
  const refused = Object.assign(new TypeError('fetch failed'), { cause: new Error('ECONNREFUSED') });

  /** A fetch that fails with `error` for its first `failures` calls, then answers 200. */
  function failingFetch(failures: number, error: unknown) {
    const calls: FetchInit[] = [];
    const fetch = async (_url: string, init: FetchInit) => {
      calls.push(init);
      if (calls.length <= failures) throw error;
      return { status: 200, headers: { get: () => null }, text: async () => '{"status":"pending"}' };
    };
    return Object.assign(fetch, { calls });
  }

  it("sends a POST answered 503 with Retry-After again after it (Sesame's promise that nothing was done)", async () => {
    const fetch = scriptedFetch(unavailable('5'), { status: 200, body: { loginAttemptId: 'a' } });
    const { http: client, waits } = http(fetch);
    await expect(client.postJson('/v1/authenticate_direct', {})).resolves.toMatchObject({ status: 200 });
    expect(waits).toEqual([5000]);
    expect(fetch.calls).toHaveLength(2);
  });

  it('reports the 503 once the retries are used up, or when Retry-After exceeds maxDelayMs', async () => {
    const used = http(scriptedFetch(unavailable('1')));
    await expect(used.http.postJson('/v1/verify', {})).rejects.toEqual(new ProviderError('temporarily_unavailable', null, 503));
    expect(used.waits).toEqual([1000, 1000, 1500]);
    const long = http(scriptedFetch(unavailable('60')));
    await expect(long.http.postJson('/v1/verify', {})).rejects.toMatchObject({ status: 503 });
    expect(long.waits).toEqual([]);
  });

  it("does not send a POST again after a 503 without Retry-After or a gateway's 502 or 504: it may have been acted on", async () => {
    for (const answer of [unavailable(), { status: 502 }, { status: 504 }]) {
      const fetch = scriptedFetch(answer, { status: 200 });
      const { http: client, waits } = http(fetch);
      await expect(client.postJson('/v1/login_code', {})).rejects.toMatchObject({ status: answer.status });
      expect(fetch.calls).toHaveLength(1);
      expect(waits).toEqual([]);
    }
  });

  it('sends a GET answered 502, 503 or 504 by a gateway again', async () => {
    const fetch = scriptedFetch({ status: 502 }, unavailable(), { status: 504 }, { status: 200, body: { status: 'pending' } });
    const { http: client, waits } = http(fetch);
    await expect(client.get('/v1/login_attempt/a?wait=25')).resolves.toMatchObject({ body: { status: 'pending' } });
    expect(waits).toEqual([375, 750, 1500]);
  });

  it('sends a GET that got no answer (refused, reset) again: a status wait held by an instance that died goes on', async () => {
    const fetch = failingFetch(2, refused);
    const { http: client, waits } = http(fetch);
    await expect(client.get('/v1/login_attempt/a?wait=25')).resolves.toMatchObject({ body: { status: 'pending' } });
    expect(waits).toEqual([375, 750]);
    expect(fetch.calls).toHaveLength(3);
  });

  it('reports a GET that never got an answer once the retries are used up', async () => {
    const { http: client, waits } = http(failingFetch(Infinity, refused));
    await expect(client.get('/v1/userinfo')).rejects.toMatchObject({ code: 'unreachable', cause: refused });
    expect(waits).toHaveLength(3);
  });

  it('does not send a POST that got no answer again: it may have reached Sesame', async () => {
    const fetch = failingFetch(1, refused);
    const { http: client, waits } = http(fetch);
    await expect(client.postForm('/v1/verify', {})).rejects.toMatchObject({ code: 'unreachable' });
    expect(fetch.calls).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('does not retry at all with retries 0', async () => {
    const fetch = failingFetch(1, refused);
    const { http: client } = http(fetch, { retry: { ...DEFAULT_RETRY, retries: 0 } });
    await expect(client.get('/v1/userinfo')).rejects.toMatchObject({ code: 'unreachable' });
    expect(fetch.calls).toHaveLength(1);
  });
});

describe('SesameHttp errors', () => {
  it('maps RFC 6749 and problem details answers to ProviderError', async () => {
    const oauth = http(scriptedFetch({ status: 400, body: { error: 'invalid_grant', error_description: 'Used code' } })).http;
    await expect(oauth.get('/v1/x')).rejects.toEqual(new ProviderError('invalid_grant', 'Used code', 400));
    const problem = http(scriptedFetch({ status: 422, body: { code: 'invalid_email', detail: 'Not an address' } })).http;
    await expect(problem.get('/v1/x')).rejects.toMatchObject({ error: 'invalid_email', errorDescription: 'Not an address', status: 422 });
    const bare = http(scriptedFetch({ status: 500 })).http;
    await expect(bare.get('/v1/x')).rejects.toMatchObject({ name: 'ProviderError', code: 'http_500', errorDescription: null, status: 500 });
  });

  it('resolves with error answers from sendRaw', async () => {
    const { http: client } = http(scriptedFetch({ status: 401, body: { error: 'invalid_token' } }));
    await expect(client.sendRaw('/v1/userinfo', { method: 'GET', headers: {} })).resolves.toMatchObject({
      status: 401,
      body: { error: 'invalid_token' },
    });
  });

  it('reports a failed fetch as unreachable, keeping the cause', async () => {
    const cause = new Error('ECONNREFUSED');
    const { http: client } = http(async () => Promise.reject(cause));
    const failure = client.get('/v1/x');
    await expect(failure).rejects.toBeInstanceOf(SesameError);
    await expect(failure).rejects.toMatchObject({
      code: 'unreachable',
      message: `Sesame could not be reached at ${BASE_URL}/v1/x: ECONNREFUSED`,
      cause,
    });
  });

  describe('timeout', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('fails a request not answered in timeoutMs and aborts its fetch', async () => {
      let signal: AbortSignal | undefined;
      const hanging = (_url: string, init: FetchInit) => {
        signal = init.signal as AbortSignal;
        return new Promise<never>(() => undefined);
      };
      const { http: client } = http(hanging, { timeoutMs: 5000 });
      const failure = client.get('/v1/x');
      const settled = expect(failure).rejects.toMatchObject({ code: 'timeout' });
      await jest.advanceTimersByTimeAsync(4999);
      expect(signal?.aborted).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      await settled;
      expect(signal?.aborted).toBe(true);
    });

    it('leaves no timer behind once answered', async () => {
      const { http: client } = http(scriptedFetch({ status: 200 }));
      await client.get('/v1/x');
      expect(jest.getTimerCount()).toBe(0);
    });
  });

  it('passes redirect only when told to', async () => {
    const fetch = scriptedFetch({ status: 200 });
    await http(fetch).http.get('/v1/x');
    await http(fetch, { redirect: 'manual' }).http.get('/v1/x');
    expect(fetch.calls.map((call) => call.init.redirect)).toEqual([undefined, 'manual']);
    expect(fetch.calls[0].init.headers).toEqual({ accept: 'application/json' });
  });
});

describe('SesameApi', () => {
  const tokens = { access_token: 't', token_type: 'Bearer', expires_in: 60, expires_at: '2030-01-01T00:00:00.000Z' };
  const info = { sub: 'u1', email: 'ada@example.com', email_verified: true, name: null, organization_id: 'o1', updated_at: 1_700_000_000 };

  it('exchanges a code with the credentials of the application', async () => {
    const fetch = scriptedFetch({ status: 200, body: tokens });
    const api = new SesameApi(http(fetch).http, { headers: {}, form: { client_id: 'native' } });
    await expect(api.exchangeCode({ code: 'c', redirectUri: 'app:/cb', verifier: 'v' })).resolves.toEqual(tokens);
    expect(fetch.calls[0].url).toBe(`${BASE_URL}/v1/verify`);
    expect(fetch.calls[0].init.body).toBe('grant_type=authorization_code&code=c&redirect_uri=app%3A%2Fcb&code_verifier=v&client_id=native');
  });

  it('reads the user, null for a token Sesame no longer accepts', async () => {
    const api = (answer: Answer) => new SesameApi(http(scriptedFetch(answer)).http, { headers: { authorization: 'Basic x' }, form: {} });
    await expect(api({ status: 200, body: info }).user('t')).resolves.toEqual({
      id: 'u1',
      email: 'ada@example.com',
      emailVerified: true,
      name: null,
      organizationId: 'o1',
      updatedAt: new Date(1_700_000_000_000),
    });
    await expect(api({ status: 401 }).user('t')).resolves.toBeNull();
    await expect(api({ status: 500 }).user('t')).rejects.toBeInstanceOf(ProviderError);
  });

  it('revokes with the credentials of the application', async () => {
    const fetch = scriptedFetch({ status: 200 });
    await new SesameApi(http(fetch).http, { headers: { authorization: 'Basic x' }, form: {} }).revoke('t');
    expect(fetch.calls[0].init).toMatchObject({
      method: 'POST',
      headers: { authorization: 'Basic x' },
      body: 'token=t&token_type_hint=access_token',
    });
  });
});
