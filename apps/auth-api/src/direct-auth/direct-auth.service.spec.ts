import { ApprovalNumbers, ProblemException } from '@sesame/common';
import { ClientPrincipal } from '@sesame/guards';
import { ClientContext } from '@sesame/entities';
import { ClientContexts } from '../clients/client-contexts';
import { DirectAuthService } from './direct-auth.service';
import { AuthenticateDirectDto } from './dto/authenticate-direct.dto';
import { LoginAttemptService, LoginRequest } from './login-attempt.service';

const principal = (overrides: Partial<ClientPrincipal> = {}): ClientPrincipal => ({
  applicationId: 'app-1',
  clientId: 'client-1',
  type: 'web',
  organizationId: 'org-1',
  tenantId: 'tenant-1',
  plan: 'pro',
  idTokenKey: Buffer.alloc(32),
  method: 'client_secret_basic',
  ...overrides,
});

const context = (callbackUrls: string[] = []): ClientContext => ({
  application: { id: 'app-1', name: 'Shop', type: 'web', clientId: 'client-1', callbackUrls },
  organization: {
    id: 'org-1',
    name: 'Acme',
    whitelistDomains: ['https://app.example.com'],
    autologin: false,
    linkTtlSeconds: 900,
    passkeys: 'offered',
  },
  tenant: { id: 'tenant-1', plan: 'pro' },
});

const input = (overrides: Partial<AuthenticateDirectDto> = {}): AuthenticateDirectDto =>
  Object.assign(new AuthenticateDirectDto(), {
    email: 'Ada@Example.COM ',
    redirect_uri: 'https://APP.example.com/cb',
    state: 'st',
    ...overrides,
  });

describe('DirectAuthService', () => {
  let contexts: { find: jest.Mock };
  let attempts: { start: jest.Mock };
  let service: DirectAuthService;

  beforeEach(() => {
    contexts = { find: jest.fn(async () => context()) };
    attempts = {
      start: jest.fn(async (request: LoginRequest) => ({
        loginAttemptId: 'attempt-1',
        tokenHash: Buffer.from('ab'.repeat(32), 'hex'),
        sentence: 'Brave otter paints softly',
        approvalNumber: request.approvalNumber,
        allowedDate: new Date('2030-01-01T00:00:15Z'),
      })),
    };
    service = new DirectAuthService(
      contexts as unknown as ClientContexts,
      attempts as unknown as LoginAttemptService,
      new ApprovalNumbers(Buffer.alloc(32)),
    );
  });

  async function refusal(client: ClientPrincipal, body: AuthenticateDirectDto = input()): Promise<ProblemException> {
    const error = await service.authenticate(client, body, null).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ProblemException);
    return error as ProblemException;
  }

  it.each(['android', 'ios', 'desktop'] as const)(
    'a %s application is refused with 400 unauthorized_client before anything else',
    async (type) => {
      for (const plan of ['free', 'pro'] as const) {
        const error = await refusal(principal({ type, plan, idTokenKey: null, method: 'none' }));
        expect({ status: error.status, code: error.code }).toEqual({ status: 400, code: 'unauthorized_client' });
      }
      expect(contexts.find).not.toHaveBeenCalled();
      expect(attempts.start).not.toHaveBeenCalled();
    },
  );

  it.each(['free', 'basic'] as const)('a %s tenant is refused with 403 plan_not_supported', async (plan) => {
    const error = await refusal(principal({ plan }));
    expect({ status: error.status, code: error.code }).toEqual({ status: 403, code: 'plan_not_supported' });
    expect(attempts.start).not.toHaveBeenCalled();
  });

  it('an application deleted meanwhile is unauthorized_client', async () => {
    contexts.find.mockResolvedValueOnce(null);
    const error = await refusal(principal());
    expect({ status: error.status, code: error.code }).toEqual({ status: 400, code: 'unauthorized_client' });
  });

  it.each(['not-an-email', 'a@b', '"x y"@example.com', ' @example.com'])('the address %j is invalid_request', async (email) => {
    const error = await refusal(principal(), input({ email }));
    expect({ status: error.status, code: error.code, detail: error.detail }).toEqual({
      status: 400,
      code: 'invalid_request',
      detail: 'email must be a valid e-mail address',
    });
    expect(attempts.start).not.toHaveBeenCalled();
  });

  it.each(['https://evil.example/cb', 'http://app.example.com/cb', 'https://app.example.com/cb#x', 'https://app.example.com.evil.com/cb'])(
    'the redirect_uri %j is invalid_request and nothing is started',
    async (redirectUri) => {
      const error = await refusal(principal(), input({ redirect_uri: redirectUri }));
      expect({ status: error.status, code: error.code }).toEqual({ status: 400, code: 'invalid_request' });
      expect(error.detail).toMatch(/^redirect_uri is not allowed/);
      expect(attempts.start).not.toHaveBeenCalled();
    },
  );

  it('with callback URLs registered, only those are accepted', async () => {
    contexts.find.mockResolvedValue(context(['https://app.example.com/auth/callback']));
    expect((await refusal(principal(), input({ redirect_uri: 'https://app.example.com/cb' }))).code).toBe('invalid_request');
    await service.authenticate(principal(), input({ redirect_uri: 'https://app.example.com/auth/callback' }), null);
    expect(attempts.start).toHaveBeenCalledTimes(1);
  });

  it('starts the attempt with the normalised address, the redirect_uri as given, and the organization’s link lifetime', async () => {
    const translations = Object.assign(Object.create({ inherited: 'x' }), { subject: 'Hallo' });
    const answer = await service.authenticate(
      principal({ plan: 'enterprise' }),
      input({
        state: 's'.repeat(10),
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        nonce: 'n-1',
        translations,
        userIp: '203.0.113.7',
      }),
      'req-1',
    );
    const request: LoginRequest = attempts.start.mock.calls[0][0];
    expect(request).toEqual({
      applicationId: 'app-1',
      organizationId: 'org-1',
      email: 'ada@example.com',
      redirectUri: 'https://APP.example.com/cb',
      state: 'ssssssssss',
      codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      nonce: 'n-1',
      flow: 'direct',
      translations: { subject: 'Hallo' },
      linkTtlSeconds: 900,
      requestId: 'req-1',
      userAgent: null,
      ip: '203.0.113.7',
      browserHash: null,
      approvalNumber: expect.stringMatching(/^[1-9]\d$/),
    });
    // The approval number is answered to the requesting application, once: the same one the attempt keeps.
    expect(answer).toEqual({
      loginAttemptId: 'attempt-1',
      token: 'ab'.repeat(32),
      sentence: 'Brave otter paints softly',
      approvalNumber: request.approvalNumber,
      allowedDate: '2030-01-01T00:00:15.000Z',
    });
  });

  it('without a challenge or translations they are null', async () => {
    await service.authenticate(principal(), input(), null);
    expect(attempts.start.mock.calls[0][0]).toMatchObject({ codeChallenge: null, nonce: null, translations: null, requestId: null });
  });
});
