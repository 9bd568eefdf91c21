import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PageQuery, Plan, Role } from '@sesame/common';
import { DataSource, EntityManager } from 'typeorm';
import { TenantMember } from '../entities/tenant-member.entity';
import { keysetPage } from './keyset-page';

/** A tenant a person belongs to, as the console lists them. */
export interface Membership {
  memberId: string;
  tenantId: string;
  tenantName: string;
  plan: Plan;
  role: Role;
}

/** What the management API's access checks need of a member: their role, and the plan of their tenant. */
export interface MemberAccess {
  id: string;
  tenantId: string;
  role: Role;
  plan: Plan;
}

/** What a member's invitation e-mail says. */
export interface MemberInvitation {
  email: string;
  role: Role;
  invitedBy: string | null;
  tenantName: string;
}

export type NewTenantMember = Pick<TenantMember, 'tenantId' | 'email' | 'role' | 'invitedBy'>;

const COLUMNS = `id, tenant_id AS "tenantId", email, role, invited_by AS "invitedBy", created_at AS "createdAt", last_sign_in_at AS "lastSignInAt"`;

/** tenant_member: the people of a tenant, always looked up within one tenant (but for a person's own memberships). */
@Injectable()
export class TenantMemberRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  list(tenantId: string, page: PageQuery): Promise<TenantMember[]> {
    const params: unknown[] = [tenantId];
    const { after, orderAndLimit } = keysetPage(page, params);
    return this.dataSource.query(`SELECT ${COLUMNS} FROM tenant_member WHERE tenant_id = $1${after} ${orderAndLimit}`, params);
  }

  async find(tenantId: string, id: string, manager: EntityManager | null = null): Promise<TenantMember | null> {
    const rows: TenantMember[] = await (manager ?? this.dataSource).query(
      `SELECT ${COLUMNS} FROM tenant_member WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0] ?? null;
  }

  /** Inserts unless the address is already a member of the tenant; null when it is. */
  async insertIfAbsent(manager: EntityManager | null, member: NewTenantMember): Promise<TenantMember | null> {
    const rows: TenantMember[] = await (manager ?? this.dataSource).query(
      `INSERT INTO tenant_member (tenant_id, email, role, invited_by) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [member.tenantId, member.email, member.role, member.invitedBy],
    );
    return rows[0] ?? null;
  }

  async setRole(manager: EntityManager, member: TenantMember, role: Role): Promise<TenantMember> {
    await manager.query('UPDATE tenant_member SET role = $3 WHERE tenant_id = $1 AND id = $2', [member.tenantId, member.id, role]);
    return { ...member, role };
  }

  async delete(manager: EntityManager | null, tenantId: string, id: string): Promise<void> {
    await (manager ?? this.dataSource).query('DELETE FROM tenant_member WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
  }

  /** The addresses of the tenant's owners. */
  async ownerAddresses(tenantId: string): Promise<string[]> {
    const rows: { email: string }[] = await this.dataSource.query(
      `SELECT email FROM tenant_member WHERE tenant_id = $1 AND role = 'owner' ORDER BY created_at`,
      [tenantId],
    );
    return rows.map((row) => row.email);
  }

  async countOwners(manager: EntityManager, tenantId: string): Promise<number> {
    const rows: { count: number }[] = await manager.query(
      `SELECT count(*)::int AS count FROM tenant_member WHERE tenant_id = $1 AND role = 'owner'`,
      [tenantId],
    );
    return rows[0].count;
  }

  /**
   * Runs `work` with the tenant's member list locked (its tenant row, FOR UPDATE): changes of
   * roles and removals of one tenant happen one at a time, so two owners demoting each other at
   * once cannot leave the tenant without one.
   */
  whileLocked<T>(tenantId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT 1 FROM tenant WHERE id = $1 FOR UPDATE', [tenantId]);
      return work(manager);
    });
  }

  /** Every tenant the address is a member of (never the system tenant), oldest membership first. */
  async membershipsOf(email: string): Promise<Membership[]> {
    const rows: { member_id: string; tenant_id: string; tenant_name: string; plan: Plan; role: Role }[] = await this.dataSource.query(
      `SELECT m.id AS member_id, t.id AS tenant_id, t.name AS tenant_name, t.plan, m.role
         FROM tenant_member m JOIN tenant t ON t.id = m.tenant_id
        WHERE m.email = $1 AND NOT t.system
        ORDER BY m.created_at, m.id`,
      [email],
    );
    return rows.map((row) => ({
      memberId: row.member_id,
      tenantId: row.tenant_id,
      tenantName: row.tenant_name,
      plan: row.plan,
      role: row.role,
    }));
  }

  /** The address as a member of the tenant, with the tenant's plan; null when it is none (the system tenant has no members). */
  async findAccess(tenantId: string, email: string): Promise<MemberAccess | null> {
    const rows: MemberAccess[] = await this.dataSource.query(
      `SELECT m.id, m.tenant_id AS "tenantId", m.role, t.plan FROM tenant_member m JOIN tenant t ON t.id = m.tenant_id WHERE m.tenant_id = $1 AND m.email = $2 AND NOT t.system`,
      [tenantId, email],
    );
    return rows[0] ?? null;
  }

  /** A sign-in at `at` on every membership of the address (a later one already recorded stays). */
  async recordSignIn(email: string, at: Date): Promise<void> {
    await this.dataSource.query(
      'UPDATE tenant_member SET last_sign_in_at = $2 WHERE email = $1 AND (last_sign_in_at IS NULL OR last_sign_in_at < $2)',
      [email, at],
    );
  }

  /** The member's invitation with their tenant's name; null once the member is gone. */
  async findInvitation(id: string): Promise<MemberInvitation | null> {
    const rows: MemberInvitation[] = await this.dataSource.query(
      `SELECT m.email, m.role, m.invited_by AS "invitedBy", t.name AS "tenantName" FROM tenant_member m JOIN tenant t ON t.id = m.tenant_id WHERE m.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }
}
