import { ManualClock, ProblemException } from '@sesame/common';
import { Organization, PasskeyOwner, PasskeySummary, UserPasskeys, UserRepository } from '@sesame/entities';
import { UserPasskeysService } from './user-passkeys.service';

const ORGANIZATION = { id: 'org-1', tenantId: 'tenant-1' } as Organization;
const PASSKEY: PasskeySummary = {
  id: 'pk-1',
  organizationId: 'org-1',
  userId: 'user-1',
  name: 'Chrome on macOS',
  deviceType: 'multiDevice',
  backedUp: true,
  transports: ['internal', 'hybrid'],
  rpId: null,
  createdAt: new Date('2026-11-01T10:00:00.000Z'),
  lastUsedAt: null,
};

function service(options: { userExists?: boolean; removed?: PasskeySummary | null } = {}) {
  const removals: { owner: PasskeyOwner; passkeyId: string; actor: unknown; now: Date }[] = [];
  const users = { find: async () => (options.userExists === false ? null : { id: 'user-1' }) } as unknown as UserRepository;
  const passkeys = {
    list: async () => [PASSKEY],
    remove: async (owner: PasskeyOwner, passkeyId: string, actor: unknown, now: Date) => {
      removals.push({ owner, passkeyId, actor, now });
      return options.removed === undefined ? PASSKEY : options.removed;
    },
  } as unknown as UserPasskeys;
  const clock = new ManualClock(new Date('2026-11-02T00:00:00.000Z'));
  return { passkeys: new UserPasskeysService(users, passkeys, clock), removals };
}

async function problemOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProblemException);
  const { status, code, detail } = error as ProblemException;
  return { status, code, detail };
}

describe('UserPasskeysService', () => {
  it('answers the passkeys without anything but what the list shows', async () => {
    expect(await service().passkeys.list('org-1', 'user-1')).toEqual({
      data: [
        {
          id: 'pk-1',
          name: 'Chrome on macOS',
          deviceType: 'multiDevice',
          backedUp: true,
          transports: ['internal', 'hybrid'],
          rpId: null,
          createdAt: '2026-11-01T10:00:00.000Z',
          lastUsedAt: null,
        },
      ],
    });
  });

  it('answers 404 for a user the organization does not have', async () => {
    expect(await problemOf(service({ userExists: false }).passkeys.list('org-1', 'user-1'))).toEqual({
      status: 404,
      code: 'not_found',
      detail: 'user not found',
    });
  });

  it("removes in the organization's tenant, at the clock's time, leaving the audit to the route", async () => {
    const { passkeys, removals } = service();
    await passkeys.remove(ORGANIZATION, 'user-1', 'pk-1');
    expect(removals).toEqual([
      {
        owner: { tenantId: 'tenant-1', organizationId: 'org-1', userId: 'user-1' },
        passkeyId: 'pk-1',
        actor: null,
        now: new Date('2026-11-02T00:00:00.000Z'),
      },
    ]);
  });

  it('answers 404 when there is no such passkey of the user', async () => {
    expect(await problemOf(service({ removed: null }).passkeys.remove(ORGANIZATION, 'user-1', 'pk-2'))).toEqual({
      status: 404,
      code: 'not_found',
      detail: 'passkey not found',
    });
  });
});
