import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Role, PageQuery, Plan } from '@sesame/common';
import { keysetQueryBuilder, TenantMember } from '@sesame/entities';
import { EntityManager, Repository } from 'typeorm';

/** A tenant a person belongs to, as the console lists them. */
export interface Membership {
  memberId: string;
  tenantId: string;
  tenantName: string;
  plan: Plan;
  role: Role;
}

/** Tenant members, always looked up within one tenant (but for a person's own memberships). */
@Injectable()
export class TenantMemberRepository {
  constructor(@InjectRepository(TenantMember) private readonly members: Repository<TenantMember>) {}

  list(tenantId: string, page: PageQuery): Promise<TenantMember[]> {
    return keysetQueryBuilder(this.members.createQueryBuilder('member').where('member.tenantId = :tenantId', { tenantId }), page).getMany();
  }

  find(tenantId: string, id: string, manager: EntityManager | null = null): Promise<TenantMember | null> {
    return (manager?.getRepository(TenantMember) ?? this.members).findOneBy({ tenantId, id });
  }

  /** Inserts unless the address is already a member of the tenant; null when it is. */
  async insertIfAbsent(manager: EntityManager | null, member: Pick<TenantMember, 'tenantId' | 'email' | 'role' | 'invitedBy'>): Promise<TenantMember | null> {
    const repository = manager?.getRepository(TenantMember) ?? this.members;
    const result = await repository.createQueryBuilder().insert().values(member).orIgnore().returning('*').execute();
    const id = result.identifiers[0]?.id as string | undefined;
    return id ? repository.findOneByOrFail({ id }) : null;
  }

  async setRole(manager: EntityManager, member: TenantMember, role: Role): Promise<TenantMember> {
    await manager.getRepository(TenantMember).update({ id: member.id, tenantId: member.tenantId }, { role });
    return { ...member, role };
  }

  async delete(manager: EntityManager | null, tenantId: string, id: string): Promise<void> {
    await (manager?.getRepository(TenantMember) ?? this.members).delete({ tenantId, id });
  }

  countOwners(manager: EntityManager, tenantId: string): Promise<number> {
    return manager.getRepository(TenantMember).countBy({ tenantId, role: 'owner' });
  }

  /**
   * Runs `work` with the tenant's member list locked (its tenant row, FOR UPDATE): changes of
   * roles and removals of one tenant happen one at a time, so two owners demoting each other at
   * once cannot leave the tenant without one.
   */
  whileLocked<T>(tenantId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.members.manager.transaction(async (manager) => {
      await manager.query('SELECT 1 FROM tenant WHERE id = $1 FOR UPDATE', [tenantId]);
      return work(manager);
    });
  }

  /** Every tenant the address is a member of (never the system tenant), oldest membership first. */
  async membershipsOf(email: string): Promise<Membership[]> {
    const rows: { member_id: string; tenant_id: string; tenant_name: string; plan: Plan; role: Role }[] = await this.members.query(
      `SELECT m.id AS member_id, t.id AS tenant_id, t.name AS tenant_name, t.plan, m.role
         FROM tenant_member m JOIN tenant t ON t.id = m.tenant_id
        WHERE m.email = $1 AND NOT t.system
        ORDER BY m.created_at, m.id`,
      [email],
    );
    return rows.map((row) => ({ memberId: row.member_id, tenantId: row.tenant_id, tenantName: row.tenant_name, plan: row.plan, role: row.role }));
  }
}
