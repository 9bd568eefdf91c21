import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { NULLABLE_TIMESTAMP, TIMESTAMP } from './columns';
import { Organization } from './organization.entity';

/** Per organization and normalised e-mail: how many recent attempts, and when the next is allowed. */
@Entity('email_throttle')
// Retention deletes rows idle for a day or more.
@Index('email_throttle_last_attempt_at', ['lastAttemptAt'])
export class EmailThrottle {
  @PrimaryColumn({ type: 'uuid', name: 'organization_id' })
  organizationId: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Organization;

  @PrimaryColumn({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ ...TIMESTAMP, name: 'allowed_date' })
  allowedDate: Date;

  @Column({ ...TIMESTAMP, name: 'last_attempt_at' })
  lastAttemptAt: Date;

  /** When wrong login codes were typed for the address (any attempt) within the last 24 hours, at most the limit's number. */
  @Column({ ...TIMESTAMP, array: true, name: 'code_failures', default: () => "'{}'" })
  codeFailures: Date[];

  /** Set when the address reached the wrong-code limit: its codes are refused until one of its links is used. */
  @Column({ ...NULLABLE_TIMESTAMP, name: 'codes_disabled_at' })
  codesDisabledAt: Date | null;
}
