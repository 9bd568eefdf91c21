import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { TIMESTAMP } from './columns';
import { Tenant } from './tenant.entity';

export const DEFAULT_LINK_TTL_SECONDS = 600;

@Entity('organization')
@Index('organization_tenant_page', ['tenantId', 'createdAt', 'id'])
export class Organization {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Tenant;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** Normalised origins (see normalizeWhitelistDomain). */
  @Column({ type: 'text', array: true, name: 'whitelist_domains', default: () => "'{}'" })
  whitelistDomains: string[];

  @Column({ type: 'boolean', default: false })
  autologin: boolean;

  @Column({ type: 'integer', name: 'link_ttl_seconds', default: DEFAULT_LINK_TTL_SECONDS })
  linkTtlSeconds: number;

  @CreateDateColumn({ ...TIMESTAMP, name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ ...TIMESTAMP, name: 'updated_at' })
  updatedAt: Date;
}
