import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { NULLABLE_TIMESTAMP, TIMESTAMP } from './columns';
import { Organization } from './organization.entity';

@Entity('user')
@Index('user_organization_email', ['organizationId', 'email'], { unique: true })
@Index('user_organization_page', ['organizationId', 'createdAt', 'id'])
export class User {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid', name: 'organization_id' })
  organizationId: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Organization;

  /** Normalised with normalizeEmail. */
  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name: string | null;

  @Column({ type: 'boolean', default: false })
  blocked: boolean;

  @Column({ type: 'boolean', name: 'email_verified', default: false })
  emailVerified: boolean;

  @Column({ ...NULLABLE_TIMESTAMP, name: 'last_login_at' })
  lastLoginAt: Date | null;

  @CreateDateColumn({ ...TIMESTAMP, name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ ...TIMESTAMP, name: 'updated_at' })
  updatedAt: Date;
}
