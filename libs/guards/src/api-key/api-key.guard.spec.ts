import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ProblemException } from '@sesame/common';
import { ApiKeyGuard, bearerToken } from './api-key.guard';
import { ApiKeyVerifier } from './api-key-verifier';
import { Principal, RequestWithPrincipal } from './principal';

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
  const tenant: Principal = { kind: 'tenant', tenantId: 't', plan: 'pro', apiKeyId: 'k' };
  const verifier = { verify: jest.fn(async (key: string) => (key === 'sk_good' ? tenant : null)) } as unknown as ApiKeyVerifier;
  const reflector = (isPublic: boolean) => ({ getAllAndOverride: () => isPublic }) as unknown as Reflector;
  const contextFor = (request: RequestWithPrincipal) =>
    ({ getHandler: () => undefined, getClass: () => undefined, switchToHttp: () => ({ getRequest: () => request }) }) as unknown as ExecutionContext;

  async function rejection(authorization: string | undefined): Promise<ProblemException> {
    const guard = new ApiKeyGuard(verifier, reflector(false));
    const error = await guard.canActivate(contextFor({ headers: { authorization } })).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ProblemException);
    return error as ProblemException;
  }

  it('puts the principal of a valid key on the request', async () => {
    const request: RequestWithPrincipal = { headers: { authorization: 'Bearer sk_good' } };
    await expect(new ApiKeyGuard(verifier, reflector(false)).canActivate(contextFor(request))).resolves.toBe(true);
    expect(request.principal).toEqual(tenant);
  });

  it('lets public routes through without a key', async () => {
    await expect(new ApiKeyGuard(verifier, reflector(true)).canActivate(contextFor({ headers: {} }))).resolves.toBe(true);
  });

  it.each([undefined, 'Basic c2tfZ29vZDo=', 'sk_good'])('no Bearer header (%j): 401 missing_api_key with a Bearer challenge', async (header) => {
    const error = await rejection(header);
    expect([error.status, error.code, error.headers]).toEqual([401, 'missing_api_key', { 'WWW-Authenticate': 'Bearer realm="sesame"' }]);
  });

  it.each(['Bearer', 'Bearer sk_bad', 'Bearer sk_good extra'])('%j: 401 invalid_api_key with an invalid_token challenge', async (header) => {
    const error = await rejection(header);
    expect([error.status, error.code, error.headers]).toEqual([
      401,
      'invalid_api_key',
      { 'WWW-Authenticate': 'Bearer realm="sesame", error="invalid_token", error_description="The API key is not valid"' },
    ]);
  });

  it('never asks the verifier about an empty token', async () => {
    (verifier.verify as jest.Mock).mockClear();
    await rejection('Bearer   ');
    expect(verifier.verify).not.toHaveBeenCalled();
  });
});
