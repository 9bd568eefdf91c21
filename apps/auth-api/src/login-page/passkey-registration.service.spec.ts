import { ManualClock, parseEnvironment } from '@sesame/common';
import { ClientContext, PasskeyChallengeRepository, PasskeyRepository, Transactions, UserRepository } from '@sesame/entities';
import { EntityManager } from 'typeorm';
import { MAX_PASSKEYS_PER_USER, PasskeyCeremony } from '../passkeys/passkey-ceremony';
import { CompletedHere, PasskeyRegistrationService } from './passkey-registration.service';

function service(options: { passkeys: number; publicBaseUrl?: string }) {
  const grants: unknown[] = [];
  const transactions = { run: (work: (manager: EntityManager) => unknown) => work({} as EntityManager) } as unknown as Transactions;
  const challenges = {
    insertRegistrationGrant: jest.fn(async (_manager: unknown, grant: unknown) => {
      grants.push(grant);
      return 'grant-id';
    }),
  } as unknown as PasskeyChallengeRepository;
  const passkeys = {
    credentialIdsOfUser: async () => Array.from({ length: options.passkeys }, () => ({ credentialId: Buffer.alloc(16), transports: [] })),
  } as unknown as PasskeyRepository;
  const config = parseEnvironment({
    DATABASE_URL: 'postgres://localhost/unit',
    SECRETS_KEY: '00'.repeat(32),
    PUBLIC_BASE_URL: options.publicBaseUrl ?? 'https://id.example.com/api',
  });
  const clock = new ManualClock(new Date('2031-03-01T12:00:00.000Z'));
  const registration = new PasskeyRegistrationService(
    transactions,
    clock,
    challenges,
    passkeys,
    {} as UserRepository,
    {} as PasskeyCeremony,
    config,
  );
  return { registration, grants };
}

function login(policy: ClientContext['organization']['passkeys']): CompletedHere {
  return {
    context: {
      application: { id: 'app', name: 'App', type: 'web', clientId: 'client', callbackUrls: [] },
      organization: { id: 'org', name: 'Org', whitelistDomains: [], autologin: false, linkTtlSeconds: 600, passkeys: policy },
      tenant: { id: 'tenant', plan: 'pro' },
    },
    userId: 'user',
    loginAttemptId: 'attempt',
    attemptCookie: 'attempt-cookie',
    csrfCookie: 'csrf-cookie',
  };
}

describe('PasskeyRegistrationService.offer', () => {
  it('offers a skippable passkey when the organization offers them, bound to the login and living as long as its code', async () => {
    const { registration, grants } = service({ passkeys: 0 });
    expect(await registration.offer(login('offered'), false)).toEqual({ registrationId: 'grant-id', skippable: true });
    expect(grants).toEqual([
      expect.objectContaining({
        organizationId: 'org',
        applicationId: 'app',
        userId: 'user',
        loginAttemptId: 'attempt',
        expiresAt: new Date('2031-03-01T12:05:00.000Z'),
      }),
    ]);
  });

  it('makes no offer where passkeys are off, where the public address is an IP address, or once skipped on the device', async () => {
    expect(await service({ passkeys: 0 }).registration.offer(login('off'), false)).toBeNull();
    expect(
      await service({ passkeys: 0, publicBaseUrl: 'http://127.0.0.1:3000/api' }).registration.offer(login('offered'), false),
    ).toBeNull();
    const skipped = service({ passkeys: 0 });
    expect(await skipped.registration.offer(login('offered'), true)).toBeNull();
    expect(skipped.grants).toEqual([]);
  });

  it('required: no skip for a user without a passkey, even after a skip; the ordinary offer for a user who has one', async () => {
    expect(await service({ passkeys: 0 }).registration.offer(login('required'), true)).toEqual({
      registrationId: 'grant-id',
      skippable: false,
    });
    expect(await service({ passkeys: 1 }).registration.offer(login('required'), false)).toEqual({
      registrationId: 'grant-id',
      skippable: true,
    });
    expect(await service({ passkeys: 1 }).registration.offer(login('required'), true)).toBeNull();
  });

  it(`makes no offer to a user who has ${MAX_PASSKEYS_PER_USER} passkeys`, async () => {
    expect(await service({ passkeys: MAX_PASSKEYS_PER_USER }).registration.offer(login('required'), false)).toBeNull();
  });
});
