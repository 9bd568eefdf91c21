import { Injectable } from '@nestjs/common';
import { conflict, MemberRole, notFound, Page, PageQuery, ProblemException, toPage, validEmail } from '@sesame/common';
import { TenantMember } from '@sesame/entities';
import { MemberVerifier, SignedInPerson } from '@sesame/guards';
import { MailProducer, QueueUnavailableError } from '@sesame/queue';
import { EntityManager } from 'typeorm';
import { InviteMemberDto, MembershipResponse, MemberResponse } from './dto/member.dto';
import { TenantMemberRepository } from './tenant-member.repository';

/** Who a new member is told invited them: a member's address or an API key's name; null for the platform key. */
export type Inviter = string | null;

/**
 * The people of a tenant and their roles. Owners manage members (as do tenant keys); the last
 * owner can be neither removed nor demoted. Each new member is sent an invitation through the
 * mail worker; a member whose invitation cannot be queued is not kept (503, nothing changed).
 */
@Injectable()
export class MembersService {
  constructor(
    private readonly members: TenantMemberRepository,
    private readonly mail: MailProducer,
    private readonly verifier: MemberVerifier,
  ) {}

  async list(tenantId: string, page: PageQuery): Promise<Page<MemberResponse>> {
    return toPage(await this.members.list(tenantId, page), page.limit, MemberResponse.from);
  }

  async invite(tenantId: string, input: InviteMemberDto, inviter: Inviter, requestId: string | null): Promise<MemberResponse> {
    const member = await this.members.insertIfAbsent(null, { tenantId, email: validEmail(input.email), role: input.role, invitedBy: inviter });
    if (!member) throw conflict('member_exists', 'This address is already a member of the tenant');
    await this.sendInvitation(member, requestId, () => this.members.delete(null, tenantId, member.id));
    return MemberResponse.from(member);
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
      throw new ProblemException(503, 'mail_queue_unavailable', 'The invitation e-mail cannot be queued right now, so nothing was changed; try again shortly', {
        headers: { 'Retry-After': '5' },
      });
    }
  }

  async changeRole(tenantId: string, id: string, role: MemberRole): Promise<MemberResponse> {
    const member = await this.members.whileLocked(tenantId, async (manager) => {
      const found = await this.findOrFail(tenantId, id, manager);
      if (found.role === 'owner' && role !== 'owner') await this.keepAnOwner(manager, tenantId);
      return this.members.setRole(manager, found, role);
    });
    this.verifier.forgetMember(tenantId, member.email);
    return MemberResponse.from(member);
  }

  async remove(tenantId: string, id: string): Promise<void> {
    const member = await this.members.whileLocked(tenantId, async (manager) => {
      const found = await this.findOrFail(tenantId, id, manager);
      if (found.role === 'owner') await this.keepAnOwner(manager, tenantId);
      await this.members.delete(manager, tenantId, id);
      return found;
    });
    this.verifier.forgetMember(tenantId, member.email);
  }

  /** The tenants a signed-in person belongs to. */
  async memberships(person: SignedInPerson): Promise<MembershipResponse[]> {
    return (await this.members.membershipsOf(person.email)).map(MembershipResponse.from);
  }

  /** The last-owner rule: an owner may leave their role only while another owner remains. */
  private async keepAnOwner(manager: EntityManager, tenantId: string): Promise<void> {
    if ((await this.members.countOwners(manager, tenantId)) <= 1) {
      throw conflict('last_owner', "The tenant's last owner cannot be removed or demoted; make another member owner first");
    }
  }

  private async findOrFail(tenantId: string, id: string, manager: EntityManager): Promise<TenantMember> {
    const member = await this.members.find(tenantId, id, manager);
    if (!member) throw notFound('member');
    return member;
  }
}
