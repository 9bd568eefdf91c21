import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ProblemException } from '@sesame/common';
import { ApiKeyGuard, bearerToken } from './api-key.guard';
import { ApiKeyVerifier } from './api-key-verifier';
import { MemberVerifier } from '../member/member-verifier';
import { IS_PERSON_ROUTE, IS_PUBLIC, MemberPrincipal, Principal, Public, RequestWithPrincipal, SignedInPerson } from './principal';

/** The route the requests go to (the reflector stubs decide what its decorators say). */
class OrganizationController {
  read() {}
}

describe('bearerToken', () => {
  it.each([
    ['Bearer sk_abc', 'sk_abc'],
    ['bearer sk_abc', 'sk_abc'],
    ['BEARER sk_abc', 'sk_abc'],
    ['BeArEr sk_abc', 'sk_abc'],
    ['Bearer    sk_abc   ', 'sk_abc'],
    ['   Bearer sk_abc', 'sk_abc'],
    ['Bearer\tsk_abc', 'sk_abc'],
    ['Bearer sk_a b', 'sk_a b'],
    ['Bearer Bearer sk_abc', 'Bearer sk_abc'],
    ['Bearer sk_abc=', 'sk_abc='],
  ])('%j → %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it.each(['Bearer', 'Bearer ', 'Bearer \t ', '  Bearer  '])('an empty Bearer header %j gives an empty token', (header) => {
    expect(bearerToken(header)).toBe('');
  });

  it.each([
    [undefined],
    [''],
    ['   '],
    ['sk_abc'],
    ['Bearersk_abc'],
    ['Basic c2tfYWJjOg=='],
    ['Token sk_abc'],
    ['Bearer-sk_abc'],
    ['xBearer sk_abc'],
    ['Bearer: sk_abc'],
    [['Bearer sk_abc']],
    [['Bearer sk_abc', 'Bearer sk_def']],
  ])('%j is not a Bearer header', (header) => {
    expect(bearerToken(header as string | string[] | undefined)).toBeUndefined();
  });
});

describe('ApiKeyGuard', () => {
  const tenant: Principal = { kind: 'tenant', tenantId: 't', plan: 'pro', apiKeyId: 'k', apiKeyName: 'CI', role: 'owner' };
  const TOKEN = 'a'.repeat(43);
  const TENANT_ID = '7c835fcd-39ca-4ade-a78d-43eadb03283d';
  const person: SignedInPerson = { userId: 'u', email: 'ada@example.com', signedInAt: new Date('2030-01-01T00:00:00Z') };
  const member: MemberPrincipal = {
    kind: 'member',
    tenantId: TENANT_ID,
    plan: 'pro',
    memberId: 'm',
    email: person.email,
    role: 'admin',
    signedInAt: person.signedInAt,
  };
  const verifier = { verify: jest.fn(async (key: string) => (key === 'sk_good' ? tenant : null)) } as unknown as ApiKeyVerifier;
  const members = {
    looksLikeAccessToken: (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token),
    person: jest.fn(async (token: string) => (token === TOKEN ? person : null)),
    member: jest.fn(async (_: SignedInPerson, tenantId: string) => (tenantId === TENANT_ID ? member : null)),
  } as unknown as MemberVerifier;
  const reflector = (flags: { isPublic?: boolean; personRoute?: boolean } = {}) =>
    ({
      getAllAndOverride: (key: string) =>
        (key === IS_PUBLIC ? flags.isPublic : key === IS_PERSON_ROUTE ? flags.personRoute : undefined) ?? false,
    }) as unknown as Reflector;
  const contextFor = (request: RequestWithPrincipal) =>
    ({
      getHandler: () => OrganizationController.prototype.read,
      getClass: () => OrganizationController,
      switchToHttp: () => ({ getRequest: () => request }),
    }) as unknown as ExecutionContext;
  const guard = (flags: { isPublic?: boolean; personRoute?: boolean } = {}) => new ApiKeyGuard(verifier, members, reflector(flags));

  async function rejection(authorization: string | undefined, headers: Record<string, string> = {}): Promise<ProblemException> {
    const error = await guard()
      .canActivate(contextFor({ headers: { authorization, ...headers } }))
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(error).toBeInstanceOf(ProblemException);
    return error as ProblemException;
  }

  it('puts the principal of a valid key on the request', async () => {
    const request: RequestWithPrincipal = { headers: { authorization: 'Bearer sk_good' } };
    await expect(guard().canActivate(contextFor(request))).resolves.toBe(true);
    expect(request.principal).toEqual(tenant);
  });

  it('lets public routes through without a key', async () => {
    await expect(guard({ isPublic: true }).canActivate(contextFor({ headers: {} }))).resolves.toBe(true);
  });

  it.each([undefined, 'Basic c2tfZ29vZDo=', 'sk_good'])(
    'no Bearer header (%j): 401 missing_api_key with a Bearer challenge',
    async (header) => {
      const error = await rejection(header);
      expect([error.status, error.code, error.headers]).toEqual([401, 'missing_api_key', { 'WWW-Authenticate': 'Bearer realm="sesame"' }]);
    },
  );

  it.each(['Bearer', 'Bearer sk_bad', 'Bearer sk_good extra'])(
    '%j: 401 invalid_api_key with an invalid_token challenge',
    async (header) => {
      const error = await rejection(header);
      expect([error.status, error.code, error.headers]).toEqual([
        401,
        'invalid_api_key',
        { 'WWW-Authenticate': 'Bearer realm="sesame", error="invalid_token", error_description="The API key is not valid"' },
      ]);
    },
  );

  it('a route opened by @Public() on a controller that inherits the handler leaves the base route closed: no key, no entry', async () => {
    class ReadController {
      read() {}
    }
    @Public()
    class OpenController extends ReadController {}
    const real = new ApiKeyGuard(verifier, members, new Reflector());
    const on = (controller: typeof ReadController) =>
      ({
        getHandler: () => ReadController.prototype.read,
        getClass: () => controller,
        switchToHttp: () => ({ getRequest: () => ({ headers: {} }) }),
      }) as unknown as ExecutionContext;
    await expect(real.canActivate(on(OpenController))).resolves.toBe(true);
    await expect(real.canActivate(on(ReadController))).rejects.toMatchObject({ status: 401, code: 'missing_api_key' });
  });

  it('never asks the verifier about an empty token', async () => {
    (verifier.verify as jest.Mock).mockClear();
    await rejection('Bearer   ');
    expect(verifier.verify).not.toHaveBeenCalled();
  });

  describe('console access tokens', () => {
    it('a member of the tenant named by Sesame-Tenant becomes the principal; the person is kept too', async () => {
      const request: RequestWithPrincipal = { headers: { authorization: `Bearer ${TOKEN}`, 'sesame-tenant': TENANT_ID.toUpperCase() } };
      await expect(guard().canActivate(contextFor(request))).resolves.toBe(true);
      expect([request.principal, request.person]).toEqual([member, person]);
    });

    it('a token that is not valid is 401 invalid_member_token', async () => {
      const error = await rejection(`Bearer ${'b'.repeat(43)}`, { 'sesame-tenant': TENANT_ID });
      expect([error.status, error.code, error.headers['WWW-Authenticate']]).toEqual([
        401,
        'invalid_member_token',
        expect.stringContaining('error="invalid_token"'),
      ]);
    });

    it.each([[{}], [{ 'sesame-tenant': 'not-a-uuid' }], [{ 'sesame-tenant': '' }]])(
      'without a valid Sesame-Tenant (%j): 400 tenant_header_required',
      async (headers) => {
        const error = await rejection(`Bearer ${TOKEN}`, headers);
        expect([error.status, error.code]).toEqual([400, 'tenant_header_required']);
      },
    );

    it('a tenant the person is no member of: 403 not_a_member', async () => {
      const error = await rejection(`Bearer ${TOKEN}`, { 'sesame-tenant': '2d5d5f0e-0f7b-4e84-8a52-39b8bd0e4a0b' });
      expect([error.status, error.code]).toEqual([403, 'not_a_member']);
    });

    it('a person route needs no Sesame-Tenant and gets only the person', async () => {
      const request: RequestWithPrincipal = { headers: { authorization: `Bearer ${TOKEN}` } };
      await expect(guard({ personRoute: true }).canActivate(contextFor(request))).resolves.toBe(true);
      expect([request.principal, request.person]).toEqual([undefined, person]);
    });

    it('an API key on a person route: 403 member_token_required', async () => {
      const error = await guard({ personRoute: true })
        .canActivate(contextFor({ headers: { authorization: 'Bearer sk_good' } }))
        .then(
          () => undefined,
          (thrown: unknown) => thrown as ProblemException,
        );
      expect([error?.status, error?.code]).toEqual([403, 'member_token_required']);
    });
  });
});
