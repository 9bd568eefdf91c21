import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ROLES, Role } from '@sesame/common';
import { NULLABLE_TIMESTAMP, TIMESTAMP } from './columns';
import { Tenant } from './tenant.entity';

/** A person who runs a tenant: signs in to the console with this address and reaches the management API with a role. */
@Entity('tenant_member')
@Index('tenant_member_tenant_email', ['tenantId', 'email'], { unique: true })
@Index('tenant_member_tenant_page', ['tenantId', 'createdAt', 'id'])
// One person may belong to several tenants: the console lists them by address.
@Index('tenant_member_email', ['email'])
export class TenantMember {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Tenant;

  /** Normalised with normalizeEmail, like users' addresses. */
  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'enum', enum: ROLES, enumName: 'access_role' })
  role: Role;

  /** Who invited them: a member's address or an API key's name; null when the platform key created the tenant with this owner. */
  @Column({ type: 'varchar', length: 320, name: 'invited_by', nullable: true })
  invitedBy: string | null;

  @CreateDateColumn({ ...TIMESTAMP, name: 'created_at' })
  createdAt: Date;

  /** When they last signed in to the console (the issue time of the newest token they used). */
  @Column({ ...NULLABLE_TIMESTAMP, name: 'last_sign_in_at' })
  lastSignInAt: Date | null;
}
