import { createHash } from 'node:crypto';
import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ProblemException } from '@sesame/common';
import { ClientAuthGuard, ClientAuthMethod, parseBasic } from './client-auth.guard';
import { RequestWithClient } from './client-principal';
import { ClientVerifier, RegisteredClient } from './client-verifier';

const sha256 = (value: string) => createHash('sha256').update(value).digest();
const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

const WEB_SECRET = 'cs_S3cr3t-value_with-base64url_chars';
const web: RegisteredClient = {
  applicationId: 'app-web',
  clientId: 'web-client',
  type: 'web',
  organizationId: 'org',
  tenantId: 'tenant',
  plan: 'pro',
  clientSecretHash: sha256(WEB_SECRET),
};
const android: RegisteredClient = { ...web, applicationId: 'app-android', clientId: 'android-client', type: 'android', clientSecretHash: null };
const weird: RegisteredClient = { ...web, applicationId: 'app-weird', clientId: 'we:rd id+1', clientSecretHash: sha256('p@ss:w rd+%') };
const CLIENTS = [web, android, weird];

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
    secretMatches: jest.fn((client: RegisteredClient, secret: string) => new ClientVerifier(undefined as never, undefined as never, { auth: { clientCacheSeconds: 0 } } as never).secretMatches(client, secret)),
  } as unknown as ClientVerifier;
  const reflector = (methods?: ClientAuthMethod[]) => ({ getAllAndOverride: () => methods }) as unknown as Reflector;
  const contextFor = (request: RequestWithClient) =>
    ({ getHandler: () => undefined, getClass: () => undefined, switchToHttp: () => ({ getRequest: () => request }) }) as unknown as ExecutionContext;

  async function outcome(request: RequestWithClient, methods?: ClientAuthMethod[]): Promise<ProblemException | RequestWithClient['client']> {
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
      expect(client).toEqual({ ...web, method: 'client_secret_basic' });
    });

    it('authenticates form-encoded credentials', async () => {
      const client = await outcome({ headers: { authorization: basic('we%3Ard+id%2B1:p%40ss%3Aw+rd%2B%25') } });
      expect(client).toEqual({ ...weird, method: 'client_secret_basic' });
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
    ])('a native application with %s is 400 unauthorized_client: it has no secret', async (_, authorization) => {
      const result = await outcome({ headers: { authorization } });
      expect(result).toBeInstanceOf(ProblemException);
      expect([(result as ProblemException).status, (result as ProblemException).code]).toEqual([400, 'unauthorized_client']);
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
      expect(await outcome({ headers: {}, body: { client_id: 'web-client', client_secret: WEB_SECRET } }, ALL)).toEqual({ ...web, method: 'client_secret_post' });
    });

    it('none identifies a native application, never a web one', async () => {
      expect(await outcome({ headers: {}, body: { client_id: 'android-client' } }, ALL)).toEqual({ ...android, method: 'none' });
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
      expect(await outcome({ headers: { authorization: basic(`web-client:${WEB_SECRET}`) }, body: { client_id: 'web-client' } }, ALL)).toEqual({
        ...web,
        method: 'client_secret_basic',
      });
    });

    it.each([{ client_id: 42 }, { client_id: ['web-client'] }, { client_id: 'web-client', client_secret: { $ne: '' } }])('non-string credentials %j are 400 invalid_request', async (body) => {
      const error = (await outcome({ headers: {}, body }, ALL)) as ProblemException;
      expect({ status: error.status, code: error.code }).toEqual({ status: 400, code: 'invalid_request' });
    });
  });

  describe('ClientVerifier.secretMatches', () => {
    const verifierOnly = new ClientVerifier(undefined as never, undefined as never, { auth: { clientCacheSeconds: 0 } } as never);

    it('compares SHA-256 digests, so any secret is compared in constant time over 32 bytes', () => {
      expect(verifierOnly.secretMatches(web, WEB_SECRET)).toBe(true);
      expect(verifierOnly.secretMatches(web, '')).toBe(false);
      expect(verifierOnly.secretMatches(web, 'x'.repeat(10_000))).toBe(false);
    });

    it('never matches a client without a secret', () => {
      expect(verifierOnly.secretMatches(android, '')).toBe(false);
      expect(verifierOnly.secretMatches({ ...android, clientSecretHash: null }, 'anything')).toBe(false);
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
