import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { NULLABLE_TIMESTAMP, TIMESTAMP } from './columns';
import { Organization } from './organization.entity';
import { Tenant } from './tenant.entity';

@Entity('api_key')
@Index('api_key_hash', ['hash'], { unique: true })
@Index('api_key_tenant_page', ['tenantId', 'createdAt', 'id'])
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

  @Column({ ...NULLABLE_TIMESTAMP, name: 'last_used_at' })
  lastUsedAt: Date | null;

  @Column({ ...NULLABLE_TIMESTAMP, name: 'revoked_at' })
  revokedAt: Date | null;

  @CreateDateColumn({ ...TIMESTAMP, name: 'created_at' })
  createdAt: Date;
}
