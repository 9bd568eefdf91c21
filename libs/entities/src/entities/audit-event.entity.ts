import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { TIMESTAMP } from './columns';
import { Tenant } from './tenant.entity';

/**
 * Who made a change: the platform key, a tenant's key, a member in the console, Sesame itself (a
 * webhook endpoint disabled after days of failures), or a user of an organization (their own
 * passkey, registered on the hosted login page).
 */
export const AUDIT_ACTOR_TYPES = ['platform', 'api_key', 'member', 'sesame', 'user'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** One change made through the management API (or by Sesame itself): who, what, to which object, from where. Never holds a secret. */
@Entity('audit_event')
@Index('audit_event_tenant_page', ['tenantId', 'createdAt', 'id'])
// Retention deletes by age across all tenants.
@Index('audit_event_created_at', ['createdAt'])
export class AuditEvent {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Tenant;

  @Column({ type: 'enum', enum: AUDIT_ACTOR_TYPES, enumName: 'audit_actor_type', name: 'actor_type' })
  actorType: AuditActorType;

  /** The API key's or the member's id; null for the platform key. */
  @Column({ type: 'uuid', name: 'actor_id', nullable: true })
  actorId: string | null;

  /** The API key's name or the member's address at the time, so the event stays readable after either is gone. */
  @Column({ type: 'varchar', length: 320, name: 'actor_name', nullable: true })
  actorName: string | null;

  /** `<target type>.<verb>`, e.g. `application.rotate_secret`. */
  @Column({ type: 'varchar', length: 64 })
  action: string;

  @Column({ type: 'varchar', length: 32, name: 'target_type' })
  targetType: string;

  @Column({ type: 'uuid', name: 'target_id', nullable: true })
  targetId: string | null;

  /** The fields the request set (secrets never appear: no input field is one, and answers are not recorded). */
  @Column({ type: 'jsonb', nullable: true })
  changes: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  @Column({ type: 'varchar', length: 64, name: 'request_id', nullable: true })
  requestId: string | null;

  @CreateDateColumn({ ...TIMESTAMP, name: 'created_at' })
  createdAt: Date;
}
