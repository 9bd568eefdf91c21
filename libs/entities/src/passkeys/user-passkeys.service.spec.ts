import { EntityManager } from 'typeorm';
import { AuditEventRepository } from '../repositories/audit-event.repository';
import { PasskeyRepository, PasskeySummary } from '../repositories/passkey.repository';
import { Transactions } from '../repositories/transactions';
import { UserRepository } from '../repositories/user.repository';
import { WebhookEventRepository } from '../repositories/webhook-event.repository';
import { UserPasskeys } from './user-passkeys.service';

const NOW = new Date('2031-03-01T12:00:00.000Z');
const OWNER = { tenantId: 'tenant', organizationId: 'org', userId: 'user' };
const PASSKEY: PasskeySummary = {
  id: 'passkey',
  organizationId: 'org',
  userId: 'user',
  name: 'Chrome on macOS',
  deviceType: 'multiDevice',
  backedUp: true,
  transports: ['internal'],
  rpId: null,
  createdAt: NOW,
  lastUsedAt: null,
};

function userPasskeys(options: { user?: boolean; passkey?: boolean } = {}) {
  const manager = {} as EntityManager;
  const transactions = { run: (work: (manager: EntityManager) => unknown) => work(manager) } as unknown as Transactions;
  const passkeys = { delete: jest.fn(async () => (options.passkey === false ? null : PASSKEY)) } as unknown as PasskeyRepository;
  const users = {
    findForUpdate: async () => (options.user === false ? null : { id: 'user', email: 'ada@example.com', organizationId: 'org' }),
  } as unknown as UserRepository;
  const recorded: unknown[] = [];
  const webhookEvents = {
    record: jest.fn(async (_manager: unknown, event: unknown) => recorded.push(event)),
  } as unknown as WebhookEventRepository;
  const audits: unknown[] = [];
  const audit = { insert: jest.fn(async (_manager: unknown, event: unknown) => audits.push(event)) } as unknown as AuditEventRepository;
  return { service: new UserPasskeys(transactions, passkeys, users, webhookEvents, audit), recorded, audits, passkeys };
}

describe('UserPasskeys', () => {
  it('a removal is reported as passkey.removed and audited with its actor', async () => {
    const { service, recorded, audits } = userPasskeys();
    const actor = { type: 'member' as const, id: 'member', name: 'grace@example.com', ip: '192.0.2.1', requestId: 'req' };
    expect(await service.remove(OWNER, 'passkey', actor, NOW)).toBe(PASSKEY);
    expect(recorded).toEqual([
      {
        type: 'passkey.removed',
        scope: { organizationId: 'org' },
        data: {
          user: { id: 'user', email: 'ada@example.com', organizationId: 'org' },
          passkey: { id: 'passkey', name: 'Chrome on macOS', deviceType: 'multiDevice', backedUp: true },
          removedAt: NOW.toISOString(),
        },
      },
    ]);
    expect(audits).toEqual([
      expect.objectContaining({
        tenantId: 'tenant',
        actorType: 'member',
        actorId: 'member',
        action: 'passkey.remove',
        targetType: 'passkey',
        targetId: 'passkey',
        changes: { userId: 'user', name: 'Chrome on macOS' },
        createdAt: NOW,
      }),
    ]);
  });

  it('without an actor the caller audits: only the event is written', async () => {
    const { service, recorded, audits } = userPasskeys();
    await service.remove(OWNER, 'passkey', null, NOW);
    expect(recorded).toHaveLength(1);
    expect(audits).toEqual([]);
  });

  it('nothing is reported for an unknown user or passkey', async () => {
    const noUser = userPasskeys({ user: false });
    expect(await noUser.service.remove(OWNER, 'passkey', null, NOW)).toBeNull();
    expect(noUser.recorded).toEqual([]);
    expect(noUser.audits).toEqual([]);
    const noPasskey = userPasskeys({ passkey: false });
    expect(await noPasskey.service.remove(OWNER, 'passkey', null, NOW)).toBeNull();
    expect(noPasskey.recorded).toEqual([]);
  });

  it('a registration is reported as passkey.registered and audited with the user as the actor', async () => {
    const { service, recorded, audits } = userPasskeys();
    const actor = { type: 'user' as const, id: 'user', name: 'ada@example.com', ip: null, requestId: null };
    await service.registered({} as EntityManager, OWNER, 'ada@example.com', PASSKEY, actor, NOW);
    expect(recorded).toEqual([
      expect.objectContaining({ type: 'passkey.registered', data: expect.objectContaining({ registeredAt: NOW.toISOString() }) }),
    ]);
    expect(audits).toEqual([expect.objectContaining({ actorType: 'user', actorId: 'user', action: 'passkey.register' })]);
  });
});
