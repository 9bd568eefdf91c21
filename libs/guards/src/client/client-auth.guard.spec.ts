import { createHash, createHmac } from 'node:crypto';
import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ClientSecretVerifier, ProblemException } from '@sesame/common';
import { ClientAuthGuard, ClientAuthMethod, parseBasic } from './client-auth.guard';
import { RequestWithClient } from './client-principal';
import { ClientVerifier, RegisteredClient } from './client-verifier';

const sha256 = (value: string) => createHash('sha256').update(value).digest();
const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

const WEB_SECRET = 'cs_S3cr3t-value_with-base64url_chars';
const PREVIOUS_SECRET = 'cs_the-secret-before-the-rotation';
const verifiers = new ClientSecretVerifier(Buffer.alloc(32, 7));
const NOW = new Date('2030-01-01T00:00:00Z');
const stored = (secret: string) => ({ verifier: verifiers.of(secret), legacyHash: null, previousVerifier: null, previousExpiresAt: null });
const web: RegisteredClient = {
  applicationId: 'app-web',
  clientId: 'web-client',
  type: 'web',
  organizationId: 'org',
  tenantId: 'tenant',
  plan: 'pro',
  secret: stored(WEB_SECRET),
  idTokenEncrypted: true,
};
const android: RegisteredClient = {
  ...web,
  applicationId: 'app-android',
  clientId: 'android-client',
  type: 'android',
  secret: null,
  idTokenEncrypted: false,
};
const weird: RegisteredClient = { ...web, applicationId: 'app-weird', clientId: 'we:rd id+1', secret: stored('p@ss:w rd+%') };
const signedOnly: RegisteredClient = { ...web, applicationId: 'app-signed', clientId: 'signed-client', idTokenEncrypted: false };
const principal = (client: RegisteredClient, method: string, secret: string | null) => {
  const { secret: _secret, idTokenEncrypted, ...identity } = client;
  return { ...identity, idTokenKey: idTokenEncrypted && secret !== null ? sha256(secret) : null, method };
};
const verifierAt = (now: Date) =>
  new ClientVerifier(
    undefined as never,
    { now: () => now } as never,
    verifiers,
    { auth: { clientCacheSeconds: 0 } } as never,
    { subscribe: () => undefined } as never,
  );
const CLIENTS = [web, android, weird, signedOnly];

/** The route the requests go to (the reflector stubs decide what its decorators say). */
class TokenController {
  verify() {}
}

describe('parseBasic', () => {
  it('decodes client_id:client_secret', () => {
    expect(parseBasic(basic('id:secret'))).toEqual({ clientId: 'id', clientSecret: 'secret' });
  });

  it('splits at the first colon (a secret may contain colons once form-decoded)', () => {
    expect(parseBasic(basic('id:se:cr:et'))).toEqual({ clientId: 'id', clientSecret: 'se:cr:et' });
  });

  it('form-decodes both parts (RFC 6749 §2.3.1)', () => {
    expect(parseBasic(basic('we%3Ard+id%2B1:p%40ss%3Aw+rd%2B%25'))).toEqual({ clientId: 'we:rd id+1', clientSecret: 'p@ss:w rd+%' });
  });

  it('accepts the scheme in any case and surrounding blanks', () => {
    expect(parseBasic(`bAsIc ${Buffer.from('id:s').toString('base64')}  `)).toEqual({ clientId: 'id', clientSecret: 's' });
  });

  it('gives an empty secret for "id:"', () => {
    expect(parseBasic(basic('id:'))).toEqual({ clientId: 'id', clientSecret: '' });
  });

  it.each([undefined, '', 'Bearer abc', 'Digest username="x"', 'Basicabc', ['Basic aWQ6cw==']])('%j is no Basic header', (header) => {
    expect(parseBasic(header as string | string[] | undefined)).toBeNull();
  });

  it.each([
    ['Basic', 'no credentials'],
    ['Basic    ', 'blank credentials'],
    ['Basic !!!', 'not base64'],
    ['Basic aWQ6cw== extra', 'two tokens'],
    [basic('no-colon'), 'no colon'],
    [basic('id:%E0%A4%A'), 'broken percent-encoding in the secret'],
    [basic('%ZZ:secret'), 'broken percent-encoding in the id'],
  ])('%j (%s) is 401 invalid_client', (header) => {
    const error = captured(() => parseBasic(header));
    expect({ status: error.status, code: error.code, challenge: error.headers['WWW-Authenticate'] }).toEqual({
      status: 401,
      code: 'invalid_client',
      challenge: 'Basic realm="sesame"',
    });
  });
});

describe('ClientAuthGuard', () => {
  const verifier = {
    find: jest.fn(async (clientId: string) => CLIENTS.find((client) => client.clientId === clientId) ?? null),
    cached: jest.fn((clientId: string) => CLIENTS.find((client) => client.clientId === clientId) ?? null),
    secretMatches: jest.fn((client: RegisteredClient, secret: string) => verifierAt(NOW).secretMatches(client, secret)),
  } as unknown as ClientVerifier;
  const reflector = (methods?: ClientAuthMethod[]) => ({ getAllAndOverride: () => methods }) as unknown as Reflector;
  const contextFor = (request: RequestWithClient) =>
    ({
      getHandler: () => TokenController.prototype.verify,
      getClass: () => TokenController,
      switchToHttp: () => ({ getRequest: () => request }),
    }) as unknown as ExecutionContext;

  async function outcome(
    request: RequestWithClient,
    methods?: ClientAuthMethod[],
  ): Promise<ProblemException | RequestWithClient['client']> {
    const guard = new ClientAuthGuard(verifier, reflector(methods));
    try {
      expect(await guard.canActivate(contextFor(request))).toBe(true);
      return request.client;
    } catch (error) {
      expect(error).toBeInstanceOf(ProblemException);
      return error as ProblemException;
    }
  }

  function expectInvalidClient(result: unknown): void {
    expect(result).toBeInstanceOf(ProblemException);
    const error = result as ProblemException;
    expect({ status: error.status, code: error.code, challenge: error.headers['WWW-Authenticate'] }).toEqual({
      status: 401,
      code: 'invalid_client',
      challenge: 'Basic realm="sesame"',
    });
  }

  describe('Basic only (the default)', () => {
    it('authenticates a web application with its secret', async () => {
      const client = await outcome({ headers: { authorization: basic(`web-client:${WEB_SECRET}`) } });
      expect(client).toEqual(principal(web, 'client_secret_basic', WEB_SECRET));
    });

    it('authenticates form-encoded credentials', async () => {
      const client = await outcome({ headers: { authorization: basic('we%3Ard+id%2B1:p%40ss%3Aw+rd%2B%25') } });
      expect(client).toEqual(principal(weird, 'client_secret_basic', 'p@ss:w rd+%'));
    });

    it('gives no id_token key to an application whose id_tokens are signed only', async () => {
      const client = await outcome({ headers: { authorization: basic(`signed-client:${WEB_SECRET}`) } });
      expect(client).toMatchObject({ clientId: 'signed-client', idTokenKey: null });
    });

    it.each([
      ['no Authorization header', {}],
      ['a wrong secret', { authorization: basic('web-client:wrong') }],
      ['the secret with one character changed', { authorization: basic(`web-client:${WEB_SECRET.slice(0, -1)}X`) }],
      ['the secret with a character added', { authorization: basic(`web-client:${WEB_SECRET}x`) }],
      ['an empty secret', { authorization: basic('web-client:') }],
      ['the secret in another case', { authorization: basic(`web-client:${WEB_SECRET.toUpperCase()}`) }],
      ['the client_id in another case', { authorization: basic(`WEB-CLIENT:${WEB_SECRET}`) }],
      ['an unknown client_id', { authorization: basic(`nobody:${WEB_SECRET}`) }],
      ['an empty client_id', { authorization: basic(`:${WEB_SECRET}`) }],
      ['a Bearer header', { authorization: `Bearer ${WEB_SECRET}` }],
      ['a malformed Basic header', { authorization: 'Basic' }],
    ])('%s is 401 invalid_client with the Basic challenge', async (_, headers) => {
      expectInvalidClient(await outcome({ headers }));
    });

    it.each([
      ['an empty secret', basic('android-client:')],
      ['any secret', basic('android-client:anything')],
    ])('a native application with %s is 401 invalid_client: it has no secret (RFC 6749 §5.2)', async (_, authorization) => {
      const result = await outcome({ headers: { authorization } });
      expectInvalidClient(result);
      expect((result as ProblemException).detail).toBe('Native applications have no client secret: send client_id alone and use PKCE');
    });

    it('client_secret in the body (client_secret_post) is not accepted', async () => {
      expectInvalidClient(await outcome({ headers: {}, body: { client_id: 'web-client', client_secret: WEB_SECRET } }));
    });

    it('client_id alone (none) is not accepted, even for a native application', async () => {
      expectInvalidClient(await outcome({ headers: {}, body: { client_id: 'android-client' } }));
    });

    it('says so when no client authentication was sent at all', async () => {
      const error = (await outcome({ headers: {} })) as ProblemException;
      expect(error.detail).toBe('Client authentication is required');
    });
  });

  describe('several methods allowed (as for token verification)', () => {
    const ALL: ClientAuthMethod[] = ['client_secret_basic', 'client_secret_post', 'none'];

    it('client_secret_post authenticates a web application', async () => {
      expect(await outcome({ headers: {}, body: { client_id: 'web-client', client_secret: WEB_SECRET } }, ALL)).toEqual(
        principal(web, 'client_secret_post', WEB_SECRET),
      );
    });

    it('none identifies a native application, never a web one', async () => {
      expect(await outcome({ headers: {}, body: { client_id: 'android-client' } }, ALL)).toEqual(principal(android, 'none', null));
      expectInvalidClient(await outcome({ headers: {}, body: { client_id: 'web-client' } }, ALL));
    });

    it('a web application cannot skip its secret, in the body or in Basic', async () => {
      expectInvalidClient(await outcome({ headers: {}, body: { client_id: 'web-client', client_secret: '' } }, ALL));
      expectInvalidClient(await outcome({ headers: { authorization: basic('web-client:') } }, ALL));
    });

    it('two methods at once are 400 invalid_request', async () => {
      for (const request of [
        { headers: { authorization: basic(`web-client:${WEB_SECRET}`) }, body: { client_secret: WEB_SECRET } },
        { headers: { authorization: basic(`web-client:${WEB_SECRET}`) }, body: { client_id: 'other-client' } },
      ]) {
        const error = (await outcome(request, ALL)) as ProblemException;
        expect({ status: error.status, code: error.code }).toEqual({ status: 400, code: 'invalid_request' });
      }
    });

    it('the same client_id in the body besides Basic is fine', async () => {
      expect(
        await outcome({ headers: { authorization: basic(`web-client:${WEB_SECRET}`) }, body: { client_id: 'web-client' } }, ALL),
      ).toEqual(principal(web, 'client_secret_basic', WEB_SECRET));
    });

    it.each([{ client_id: 42 }, { client_id: ['web-client'] }, { client_id: 'web-client', client_secret: { $ne: '' } }])(
      'non-string credentials %j are 400 invalid_request',
      async (body) => {
        const error = (await outcome({ headers: {}, body }, ALL)) as ProblemException;
        expect({ status: error.status, code: error.code }).toEqual({ status: 400, code: 'invalid_request' });
      },
    );
  });

  describe('ClientVerifier.secretMatches', () => {
    const verifierOnly = verifierAt(NOW);

    it('compares HMAC digests, so any secret is compared in constant time over 32 bytes', () => {
      expect(verifierOnly.secretMatches(web, WEB_SECRET)).toBe(true);
      expect(verifierOnly.secretMatches(web, '')).toBe(false);
      expect(verifierOnly.secretMatches(web, 'x'.repeat(10_000))).toBe(false);
    });

    it('the stored verifier is an HMAC under a key derived from SECRETS_KEY: neither the bare SHA-256 nor one under another key', () => {
      expect(web.secret!.verifier!.equals(sha256(WEB_SECRET))).toBe(false);
      expect(new ClientSecretVerifier(Buffer.alloc(32, 8)).of(WEB_SECRET).equals(web.secret!.verifier!)).toBe(false);
      // The derived key is not SECRETS_KEY itself.
      expect(createHmac('sha256', Buffer.alloc(32, 7)).update(WEB_SECRET).digest().equals(web.secret!.verifier!)).toBe(false);
    });

    it('accepts a legacy SHA-256 hash until migrate replaces it', () => {
      const legacy: RegisteredClient = {
        ...web,
        secret: { verifier: null, legacyHash: sha256(WEB_SECRET), previousVerifier: null, previousExpiresAt: null },
      };
      expect(verifierOnly.secretMatches(legacy, WEB_SECRET)).toBe(true);
      expect(verifierOnly.secretMatches(legacy, PREVIOUS_SECRET)).toBe(false);
    });

    it('accepts the previous secret until its overlap ends, and the current one throughout', () => {
      const ends = new Date(NOW.getTime() + 1000);
      const rotated: RegisteredClient = {
        ...web,
        secret: { ...stored(WEB_SECRET), previousVerifier: verifiers.of(PREVIOUS_SECRET), previousExpiresAt: ends },
      };
      expect(verifierAt(NOW).secretMatches(rotated, PREVIOUS_SECRET)).toBe(true);
      expect(verifierAt(ends).secretMatches(rotated, PREVIOUS_SECRET)).toBe(false);
      expect(verifierAt(ends).secretMatches(rotated, WEB_SECRET)).toBe(true);
    });

    it('never matches a client without a secret', () => {
      expect(verifierOnly.secretMatches(android, '')).toBe(false);
      expect(verifierOnly.secretMatches(android, 'anything')).toBe(false);
    });
  });

  describe('passesFromCache (the global limit may wait only for what canActivate lets through)', () => {
    const ALL: ClientAuthMethod[] = ['client_secret_basic', 'client_secret_post', 'none'];
    const requests: [string, RequestWithClient, ClientAuthMethod[] | undefined][] = [
      ['Basic with the secret', { headers: { authorization: basic(`web-client:${WEB_SECRET}`) } }, undefined],
      ['Basic with a wrong secret', { headers: { authorization: basic('web-client:wrong') } }, undefined],
      ['Basic of an unknown client', { headers: { authorization: basic(`nobody:${WEB_SECRET}`) } }, undefined],
      ['a malformed Basic header', { headers: { authorization: 'Basic' } }, undefined],
      ['no credentials', { headers: {} }, undefined],
      ['a native app with a secret', { headers: { authorization: basic('android-client:x') } }, ALL],
      ['client_id alone of a native app', { headers: {}, body: { client_id: 'android-client' } }, ALL],
      ['client_id alone of a web app', { headers: {}, body: { client_id: 'web-client' } }, ALL],
      [
        'client_secret_post where only Basic is allowed',
        { headers: {}, body: { client_id: 'web-client', client_secret: WEB_SECRET } },
        undefined,
      ],
      ['client_secret_post with the secret', { headers: {}, body: { client_id: 'web-client', client_secret: WEB_SECRET } }, ALL],
      ['two methods at once', { headers: { authorization: basic(`web-client:${WEB_SECRET}`) }, body: { client_secret: WEB_SECRET } }, ALL],
    ];

    it.each(requests)('%s: passes from the cache exactly when canActivate lets it through', async (_, request, methods) => {
      const guard = new ClientAuthGuard(verifier, reflector(methods));
      const passes = guard.passesFromCache(contextFor({ ...request }));
      const result = await outcome({ ...request }, methods);
      expect(passes).toBe(!(result instanceof ProblemException));
    });

    it('a request it passes is not checked again: canActivate gives the same principal, the secret compared once', async () => {
      // The limit's deferral and the route may hold guard instances of their own.
      const deferral = new ClientAuthGuard(verifier, reflector());
      const route = new ClientAuthGuard(verifier, reflector());
      const request: RequestWithClient = { headers: { authorization: basic(`web-client:${WEB_SECRET}`) } };
      const checkedAlone = await outcome({ ...request });
      jest.mocked(verifier.secretMatches).mockClear();
      expect(deferral.passesFromCache(contextFor(request))).toBe(true);
      expect(await route.canActivate(contextFor(request))).toBe(true);
      expect(request.client).toEqual(checkedAlone);
      expect(verifier.secretMatches).toHaveBeenCalledTimes(1);
    });

    it.each([
      ['a wrong secret', basic('web-client:wrong')],
      ['the secret of another client', basic(`android-client:${WEB_SECRET}`)],
    ])('%s: not passed, and canActivate on the same request still refuses it', async (_, authorization) => {
      const guard = new ClientAuthGuard(verifier, reflector());
      const request: RequestWithClient = { headers: { authorization } };
      expect(guard.passesFromCache(contextFor(request))).toBe(false);
      expectInvalidClient(await outcome(request));
      expect(request.client).toBeUndefined();
    });

    it('a request it passed lends nothing to another: the same client_id with a wrong secret or none, or a body naming the mark, is refused', async () => {
      const guard = new ClientAuthGuard(verifier, reflector(ALL));
      const passed: RequestWithClient = { headers: { authorization: basic(`web-client:${WEB_SECRET}`) } };
      expect(guard.passesFromCache(contextFor(passed))).toBe(true);

      const attempts: RequestWithClient[] = [
        { headers: { authorization: basic('web-client:wrong') } },
        { headers: {}, body: { client_id: 'web-client' } },
        { headers: {}, body: { client_id: 'web-client', 'sesame:client-vouched': passed.client, 'Symbol(sesame:client-vouched)': true } },
        Object.assign(
          { headers: { 'sesame:client-vouched': 'web-client' } },
          { [Symbol('sesame:client-vouched')]: { clientId: 'web-client' } },
        ),
      ];
      for (const request of attempts) {
        await expect(guard.canActivate(contextFor(request))).rejects.toMatchObject({ status: 401, code: 'invalid_client' });
        expect(request.client).toBeUndefined();
      }
    });

    it('never for a client the cache does not hold', () => {
      const guard = new ClientAuthGuard({ ...verifier, cached: () => undefined } as unknown as ClientVerifier, reflector());
      expect(guard.passesFromCache(contextFor({ headers: { authorization: basic(`web-client:${WEB_SECRET}`) } }))).toBe(false);
    });
  });
});

function captured(work: () => unknown): ProblemException {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemException);
    return error as ProblemException;
  }
  throw new Error('expected an error');
}
