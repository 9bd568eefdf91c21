import { CacheInvalidationBus, ManualClock, SesameConfig, sha256 } from '@sesame/common';
import { AccessTokenRepository, TenantMemberRepository } from '@sesame/entities';
import { MemberVerifier } from './member-verifier';

const OLD_TOKEN = 'a'.repeat(43);
const NEW_TOKEN = 'b'.repeat(43);

describe('MemberVerifier', () => {
  const clock = new ManualClock(new Date('2030-01-01T10:00:00.000Z'));
  const issued = new Map<string, Date>();

  /** The database as the verifier reads it: tokens by hash, one membership; writes are accepted. */
  const accessTokens = {
    findConsoleSession: async (hash: Buffer) => {
      const token = [OLD_TOKEN, NEW_TOKEN].find((candidate) => sha256(candidate).equals(hash));
      const at = token ? issued.get(token) : undefined;
      return at ? { userId: 'u1', email: 'ada@example.com', issuedAt: at, expiresAt: new Date(at.getTime() + 86_400_000) } : null;
    },
    recordUse: async () => undefined,
  } as unknown as AccessTokenRepository;
  const tenantMembers = {
    findAccess: async () => ({ id: 'm1', tenantId: 't1', role: 'owner', plan: 'pro' }),
    recordSignIn: async () => undefined,
  } as unknown as TenantMemberRepository;
  const config = { apiKeys: { cacheSeconds: 5 }, members: { sessionIdleSeconds: 43_200, sessionMaxSeconds: 604_800 } } as SesameConfig;

  it('gives the member the sign-in time of the token in hand, also while the membership is cached', async () => {
    const verifier = new MemberVerifier(accessTokens, tenantMembers, config, clock, {
      subscribe: () => undefined,
    } as unknown as CacheInvalidationBus);
    issued.set(OLD_TOKEN, new Date(clock.now().getTime() - 3_600_000));
    const stale = await verifier.member((await verifier.person(OLD_TOKEN))!, 't1');
    expect(stale?.signedInAt).toEqual(issued.get(OLD_TOKEN));

    // Signed in again a moment later: the membership is still cached, the sign-in is the new one.
    issued.set(NEW_TOKEN, clock.now());
    const fresh = await verifier.member((await verifier.person(NEW_TOKEN))!, 't1');
    expect(fresh).toMatchObject({ memberId: 'm1', role: 'owner', signedInAt: clock.now() });
  });

  it('an owner made viewer while their membership lookup was out is a viewer on the next request', async () => {
    let role = 'owner';
    let open!: () => void;
    let gate: Promise<void> | null = new Promise((resolve) => (open = resolve));
    const members = {
      findAccess: async () => {
        const found = { id: 'm1', tenantId: 't1', role, plan: 'pro' };
        await gate;
        return found;
      },
    } as unknown as TenantMemberRepository;
    const verifier = new MemberVerifier(accessTokens, members, config, clock, {
      subscribe: () => undefined,
    } as unknown as CacheInvalidationBus);
    issued.set(OLD_TOKEN, clock.now());
    const person = (await verifier.person(OLD_TOKEN))!;

    const overlapping = verifier.member(person, 't1');
    role = 'viewer';
    verifier.forgetMember('t1', person.email);
    open();
    expect((await overlapping)?.role).toBe('owner');
    gate = null;
    expect((await verifier.member(person, 't1'))?.role).toBe('viewer');
  });
});
