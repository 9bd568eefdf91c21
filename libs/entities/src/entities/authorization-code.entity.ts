import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Application } from './application.entity';
import { NULLABLE_TIMESTAMP, TIMESTAMP } from './columns';
import { User } from './user.entity';

/** A short-lived, single-use code sent to the callback URL and exchanged at /v1/verify. */
@Entity('authorization_code')
@Index('authorization_code_user', ['userId'])
@Index('authorization_code_application', ['applicationId'])
// Retention: unused codes by expiry, used ones by their use (see the maintenance job).
@Index('authorization_code_unused_expiry', ['expiresAt'], { where: 'used_at IS NULL' })
@Index('authorization_code_used', ['usedAt'], { where: 'used_at IS NOT NULL' })
export class AuthorizationCode {
  /** SHA-256 of the code. */
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

  /** The exact redirect_uri string given at login start; verify must present the same string. */
  @Column({ type: 'text', name: 'redirect_uri' })
  redirectUri: string;

  @Column({ type: 'varchar', length: 128, name: 'code_challenge', nullable: true })
  codeChallenge: string | null;

  /** Minted by an autologin walk for a domain that did not start the login: no PKCE, exchanged only with `autologin=true`. */
  @Column({ type: 'boolean', default: false })
  autologin: boolean;

  /** The OpenID Connect nonce of the login's request, returned in the id_token. */
  @Column({ type: 'varchar', length: 512, nullable: true })
  nonce: string | null;

  @Column({ ...TIMESTAMP, name: 'auth_time' })
  authTime: Date;

  @Column({ ...TIMESTAMP, name: 'expires_at' })
  expiresAt: Date;

  @Column({ ...NULLABLE_TIMESTAMP, name: 'used_at' })
  usedAt: Date | null;

  /** The token issued from this code, set when it is used (a token exists only if the exchange's checks passed): replaying the code revokes it. */
  @Column({ type: 'bytea', name: 'access_token_hash', nullable: true })
  accessTokenHash: Buffer | null;

  @CreateDateColumn({ ...TIMESTAMP, name: 'created_at' })
  createdAt: Date;
}
