import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Application } from './application.entity';
import { NULLABLE_TIMESTAMP, TIMESTAMP } from './columns';
import { User } from './user.entity';

/** An opaque access token, found by the SHA-256 of its value. */
@Entity('access_token')
@Index('access_token_user', ['userId'])
@Index('access_token_application', ['applicationId'])
// Retention deletes tokens some days after they expire or are revoked.
@Index('access_token_expires_at', ['expiresAt'])
@Index('access_token_revoked_at', ['revokedAt'], { where: 'revoked_at IS NOT NULL' })
export class AccessToken {
  @PrimaryColumn({ type: 'bytea' })
  hash: Buffer;

  @Column({ type: 'uuid', name: 'application_id' })
  applicationId: string;

  @ManyToOne(() => Application, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'application_id' })
  application?: Application;

  @Column({ type: 'uuid', name: 'user_id' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  /** Denormalised from the application so introspection can check ownership without a join. */
  @Column({ type: 'uuid', name: 'organization_id' })
  organizationId: string;

  @Column({ ...TIMESTAMP, name: 'expires_at' })
  expiresAt: Date;

  @Column({ ...NULLABLE_TIMESTAMP, name: 'revoked_at' })
  revokedAt: Date | null;

  /** Console access tokens: when one was last used on the management API (at most once a minute), so idle sessions end. */
  @Column({ ...NULLABLE_TIMESTAMP, name: 'last_used_at' })
  lastUsedAt: Date | null;

  @CreateDateColumn({ ...TIMESTAMP, name: 'created_at' })
  createdAt: Date;
}
