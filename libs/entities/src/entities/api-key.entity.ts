import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Role, ROLES } from '@sesame/common';
import { NULLABLE_TIMESTAMP, TIMESTAMP } from './columns';
import { Organization } from './organization.entity';
import { Tenant } from './tenant.entity';
import { TenantMember } from './tenant-member.entity';

@Entity('api_key')
@Index('api_key_hash', ['hash'], { unique: true })
@Index('api_key_tenant_page', ['tenantId', 'createdAt', 'id'])
@Index('api_key_created_by_member', ['createdByMemberId'], { where: 'created_by_member_id IS NOT NULL' })
@Index('api_key_created_by_api_key', ['createdByApiKeyId'], { where: 'created_by_api_key_id IS NOT NULL' })
@Check('api_key_organization_role', `organization_id IS NULL OR role <> 'owner'`)
export class ApiKey {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Tenant;

  /** Null for a tenant key; set for a key limited to one organization. */
  @Column({ type: 'uuid', name: 'organization_id', nullable: true })
  organizationId: string | null;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'organization_id' })
  organization?: Organization;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** The first characters of the key, shown so people can tell keys apart. */
  @Column({ type: 'varchar', length: 16 })
  prefix: string;

  /** SHA-256 of the whole key. */
  @Column({ type: 'bytea' })
  hash: Buffer;

  /** What the key may do in its tenant (organization keys: admin or viewer, in their organization). */
  @Column({ type: 'enum', enum: ROLES, enumName: 'access_role' })
  role: Role;

  /** The member who created the key; removing or demoting them revokes or caps it (and the keys it created). */
  @Column({ type: 'uuid', name: 'created_by_member_id', nullable: true })
  createdByMemberId: string | null;

  @ManyToOne(() => TenantMember, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'created_by_member_id' })
  createdByMember?: TenantMember | null;

  /** The key that created this key (none for the platform key's, and for keys older than this record). */
  @Column({ type: 'uuid', name: 'created_by_api_key_id', nullable: true })
  createdByApiKeyId: string | null;

  @ManyToOne(() => ApiKey, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'created_by_api_key_id' })
  createdByApiKey?: ApiKey | null;

  @Column({ ...NULLABLE_TIMESTAMP, name: 'last_used_at' })
  lastUsedAt: Date | null;

  @Column({ ...NULLABLE_TIMESTAMP, name: 'revoked_at' })
  revokedAt: Date | null;

  @CreateDateColumn({ ...TIMESTAMP, name: 'created_at' })
  createdAt: Date;
}
