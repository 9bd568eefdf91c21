import { Injectable } from '@nestjs/common';
import { CacheInvalidationBus, Clock, notFound, Page, PageQuery, problem, Role, roleIncludes, toPage, validEmail } from '@sesame/common';
import {
  ApiKeyRepository,
  CascadedKey,
  TenantMember,
  TenantMemberRepository,
  Transactions,
  WebhookEventRepository,
} from '@sesame/entities';
import { ApiKeyVerifier, MemberVerifier, SignedInPerson } from '@sesame/guards';
import { MailProducer, QueueUnavailableError } from '@sesame/queue';
import { EntityManager } from 'typeorm';
import { AuditContext } from '../audit/audit-context';
import { AuditService } from '../audit/audit.service';
import { apiKeyEvent, memberEvent } from '../webhooks/change-events';
import { InviteMemberDto, MembershipResponse, MemberResponse } from './dto/member.dto';

/** Who a new member is told invited them: a member's address or an API key's name; null for the platform key. */
export type Inviter = string | null;

/**
 * The people of a tenant and their roles. Owners manage members (as do owner keys); the last
 * owner can be neither removed nor demoted. A member's power does not outlive them in the keys they
 * made: removing a member revokes the keys they created (and the keys those keys created), and
 * demoting one caps those keys at the new role, in the same transaction, each with an audit event. Each new member is sent an invitation through the
 * mail worker; a member whose invitation cannot be queued is not kept (503, nothing changed).
 */
@Injectable()
export class MembersService {
  constructor(
    private readonly members: TenantMemberRepository,
    private readonly mail: MailProducer,
    private readonly verifier: MemberVerifier,
    private readonly keys: ApiKeyRepository,
    private readonly keyVerifier: ApiKeyVerifier,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly invalidations: CacheInvalidationBus,
    private readonly transactions: Transactions,
    private readonly webhookEvents: WebhookEventRepository,
  ) {}

  async list(tenantId: string, page: PageQuery): Promise<Page<MemberResponse>> {
    return toPage(await this.members.list(tenantId, page), page.limit, MemberResponse.from);
  }

  async invite(tenantId: string, input: InviteMemberDto, inviter: Inviter, requestId: string | null): Promise<MemberResponse> {
    const { member, eventId } = await this.transactions.run(async (manager) => {
      const member = await this.members.insertIfAbsent(manager, {
        tenantId,
        email: validEmail(input.email),
        role: input.role,
        invitedBy: inviter,
      });
      if (!member) throw problem('member_exists', 'This address is already a member of the tenant');
      const [eventId] = await this.webhookEvents.record(manager, memberEvent('member.added', member, { invitedBy: inviter }));
      return { member, eventId };
    });
    await this.sendInvitation(member, requestId, () => this.withdraw(member, eventId));
    return MemberResponse.from(member);
  }

  /**
   * A member whose invitation could not be queued is removed again, and their `member.added` with
   * them while no worker has taken it; if one has, `member.removed` follows it.
   */
  private withdraw(member: TenantMember, addedEventId: string): Promise<void> {
    return this.transactions.run(async (manager) => {
      await this.members.delete(manager, member.tenantId, member.id);
      if (!(await this.webhookEvents.withdraw(manager, addedEventId)))
        await this.webhookEvents.record(manager, memberEvent('member.removed', member, { reason: 'invitation_not_sent' }));
    });
  }

  /** The first owner of a new tenant, inside the transaction that creates it; send the invitation with sendInvitation once it has committed. */
  async addOwner(manager: EntityManager, tenantId: string, email: string): Promise<TenantMember> {
    return (await this.members.insertIfAbsent(manager, { tenantId, email, role: 'owner', invitedBy: null }))!;
  }

  /** Queues a member's invitation; when the queue does not take it, `undo` withdraws what was created and the caller gets 503. */
  async sendInvitation(member: TenantMember, requestId: string | null, undo: () => Promise<void>): Promise<void> {
    try {
      await this.mail.enqueueMemberInvitation(member.id, requestId);
    } catch (error) {
      if (!(error instanceof QueueUnavailableError)) throw error;
      await undo();
      throw problem(
        'mail_queue_unavailable',
        'The invitation e-mail cannot be queued right now, so nothing was changed; try again shortly',
        {
          headers: { 'Retry-After': '5' },
        },
      );
    }
  }

  async changeRole(tenantId: string, id: string, role: Role, context: AuditContext): Promise<MemberResponse> {
    const { member, capped } = await this.members.whileLocked(tenantId, async (manager) => {
      const found = await this.findOrFail(tenantId, id, manager);
      if (found.role === 'owner' && role !== 'owner') await this.keepAnOwner(manager, tenantId);
      const demoted = !roleIncludes(role, found.role);
      const capped = demoted ? await this.keys.capMadeBy(manager, tenantId, id, role) : [];
      for (const key of capped)
        await this.recordKeyChange(manager, context, tenantId, 'api_key.update', key, { role: key.role, reason: 'creator_demoted' });
      const member = await this.members.setRole(manager, found, role);
      if (member.role !== found.role)
        await this.webhookEvents.record(manager, memberEvent('member.role_changed', member, { previousRole: found.role }));
      return { member, capped };
    });
    await this.forget(tenantId, member, capped);
    return MemberResponse.from(member);
  }

  async remove(tenantId: string, id: string, context: AuditContext): Promise<void> {
    const { member, revoked } = await this.members.whileLocked(tenantId, async (manager) => {
      const found = await this.findOrFail(tenantId, id, manager);
      if (found.role === 'owner') await this.keepAnOwner(manager, tenantId);
      const revoked = await this.keys.revokeMadeBy(manager, tenantId, id, this.clock.now());
      for (const key of revoked)
        await this.recordKeyChange(manager, context, tenantId, 'api_key.revoke', key, { reason: 'creator_removed' });
      await this.members.delete(manager, tenantId, id);
      await this.webhookEvents.record(
        manager,
        memberEvent('member.removed', found),
        ...revoked.map((key) => apiKeyEvent('api_key.revoked', tenantId, key, { reason: 'creator_removed' })),
      );
      return { member: found, revoked };
    });
    await this.forget(tenantId, member, revoked);
  }

  private recordKeyChange(
    manager: EntityManager,
    context: AuditContext,
    tenantId: string,
    action: string,
    key: CascadedKey,
    changes: Record<string, unknown>,
  ): Promise<void> {
    return this.audit.recordIn(manager, context, { tenantId, action, targetType: 'api_key', targetId: key.id, changes });
  }

  /** Every instance drops what it cached of the member and their keys at once (this one even while Redis is away; the others then within API_KEY_CACHE_SECONDS). */
  private async forget(tenantId: string, member: TenantMember, keys: CascadedKey[]): Promise<void> {
    this.verifier.forgetMember(tenantId, member.email);
    for (const key of keys) this.keyVerifier.forget(key.hash);
    await this.invalidations.publish({ kind: 'member', memberId: member.id });
    for (const key of keys) await this.invalidations.publish({ kind: 'api-key', apiKeyId: key.id });
  }

  /** The tenants a signed-in person belongs to. */
  async memberships(person: SignedInPerson): Promise<MembershipResponse[]> {
    return (await this.members.membershipsOf(person.email)).map(MembershipResponse.from);
  }

  /** The last-owner rule: an owner may leave their role only while another owner remains. */
  private async keepAnOwner(manager: EntityManager, tenantId: string): Promise<void> {
    if ((await this.members.countOwners(manager, tenantId)) <= 1) {
      throw problem('last_owner', "The tenant's last owner cannot be removed or demoted; make another member owner first");
    }
  }

  private async findOrFail(tenantId: string, id: string, manager: EntityManager): Promise<TenantMember> {
    const member = await this.members.find(tenantId, id, manager);
    if (!member) throw notFound('member');
    return member;
  }
}
