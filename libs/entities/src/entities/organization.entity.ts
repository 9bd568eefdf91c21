import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { TIMESTAMP } from './columns';
import { Tenant } from './tenant.entity';

export const DEFAULT_LINK_TTL_SECONDS = 600;

/**
 * Passkeys in an organization: `off` (never offered, never accepted), `offered` (the hosted page
 * offers signing in with one and, after an e-mailed login, creating one; skipping is one click) or
 * `required` (the offer after an e-mailed login has no skip). See docs/passkeys.md.
 */
export const PASSKEY_POLICIES = ['off', 'offered', 'required'] as const;
export type PasskeyPolicy = (typeof PASSKEY_POLICIES)[number];

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

  @Column({ type: 'enum', enum: PASSKEY_POLICIES, enumName: 'organization_passkeys', default: 'offered' })
  passkeys: PasskeyPolicy;

  @CreateDateColumn({ ...TIMESTAMP, name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ ...TIMESTAMP, name: 'updated_at' })
  updatedAt: Date;
}
