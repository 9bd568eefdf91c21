import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Application } from './application.entity';
import { NULLABLE_TIMESTAMP, TIMESTAMP } from './columns';
import { Organization } from './organization.entity';

/**
 * pending → completed (link or code used), approved (from another device; completed once the
 * requesting side collects its code), expired (time ran out, or withdrawn), locked (too many wrong
 * codes); see docs/login-flow.md.
 */
export const LOGIN_ATTEMPT_STATUSES = ['pending', 'approved', 'completed', 'expired', 'locked'] as const;
export type LoginAttemptStatus = (typeof LOGIN_ATTEMPT_STATUSES)[number];

/** How a login started: direct authentication (an authenticated client) or the hosted login page (anyone with a client_id). */
export const LOGIN_FLOWS = ['direct', 'hosted'] as const;
export type LoginFlow = (typeof LOGIN_FLOWS)[number];

/** Strings of the login e-mail and pages a caller may override (the `translations` field in docs/login-flow.md). */
export type Translations = Partial<Record<'subject' | 'greeting' | 'intro' | 'button' | 'code' | 'expiry' | 'ignore', string>>;

/** One e-mailed login link: created by direct authentication or the hosted login page. */
@Entity('login_attempt')
@Index('login_attempt_token_hash', ['tokenHash'], { unique: true })
// Sentences are unique among live attempts, so a user can tell their attempt from any other.
@Index('login_attempt_live_sentence', ['sentence'], { unique: true, where: "status = 'pending'" })
// The sweeper looks for pending attempts whose mail has not been sent.
@Index('login_attempt_unsent', ['expiresAt'], { where: "status = 'pending' AND mail_sent_at IS NULL AND NOT mail_suppressed" })
@Index('login_attempt_organization_email', ['organizationId', 'email', 'createdAt'])
// Login activity pages through an organization's attempts by creation.
@Index('login_attempt_organization_page', ['organizationId', 'createdAt', 'id'])
@Index('login_attempt_application', ['applicationId'])
// Retention deletes attempts by age across all organizations.
@Index('login_attempt_created_at', ['createdAt'])
@Index('login_attempt_autologin_walk', ['autologinWalkHash'], { unique: true, where: 'autologin_walk_hash IS NOT NULL' })
export class LoginAttempt {
  // The database's default is uuid_v7() (time-ordered; migration OrderedLoginAttemptIds), not the
  // gen_random_uuid() TypeORM assumes for 'uuid': a generated migration must not undo it.
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid', name: 'organization_id' })
  organizationId: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Organization;

  @Column({ type: 'uuid', name: 'application_id' })
  applicationId: string;

  @ManyToOne(() => Application, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'application_id' })
  application?: Application;

  /** Normalised address the link was sent to. */
  @Column({ type: 'varchar', length: 254 })
  email: string;

  /** SHA-256 of the link token; the token itself exists only in the e-mail. */
  @Column({ type: 'bytea', name: 'token_hash' })
  tokenHash: Buffer;

  /**
   * The link token encrypted with SECRETS_KEY, so the worker (and the sweeper, after a lost job)
   * can build the e-mail from ids alone. Cleared once the attempt is used or expired.
   */
  @Column({ type: 'text', name: 'link_token_encrypted', nullable: true })
  linkTokenEncrypted: string | null;

  /** HMAC of the 6-digit code printed beside the link (LoginCodes); the code and the link are one credential. */
  @Column({ type: 'bytea', name: 'code_verifier', nullable: true })
  codeVerifier: Buffer | null;

  /**
   * HMAC of the approval number (ApprovalNumbers), which only the requesting screen shows: typed on
   * another device, it approves the attempt. Null once a wrong number was typed (approval ended).
   */
  @Column({ type: 'bytea', name: 'approval_verifier', nullable: true })
  approvalVerifier: Buffer | null;

  /** Wrong codes tried so far; at the limit the attempt is locked, its link too. */
  @Column({ type: 'integer', name: 'code_failures', default: 0 })
  codeFailures: number;

  @Column({ type: 'varchar', length: 200 })
  sentence: string;

  @Column({ type: 'varchar', length: 1024 })
  state: string;

  @Column({ type: 'text', name: 'redirect_uri' })
  redirectUri: string;

  @Column({ type: 'varchar', length: 128, name: 'code_challenge', nullable: true })
  codeChallenge: string | null;

  @Column({ type: 'jsonb', nullable: true })
  translations: Translations | null;

  @Column({ type: 'enum', enum: LOGIN_FLOWS, enumName: 'login_flow', default: 'direct' })
  flow: LoginFlow;

  /** The OpenID Connect nonce of the request, returned in the id_token. */
  @Column({ type: 'varchar', length: 512, nullable: true })
  nonce: string | null;

  @Column({ type: 'enum', enum: LOGIN_ATTEMPT_STATUSES, enumName: 'login_attempt_status', default: 'pending' })
  status: LoginAttemptStatus;

  /** User-Agent of the requesting side (the browser of the hosted page; for direct authentication what the application passed on), shown when approving from another device. */
  @Column({ type: 'varchar', length: 512, name: 'requester_user_agent', nullable: true })
  requesterUserAgent: string | null;

  /** Hosted page: SHA-256 of the cookie set in the browser that asked; only it collects an approval, and the link page knows it. */
  @Column({ type: 'bytea', name: 'requester_browser_hash', nullable: true })
  requesterBrowserHash: Buffer | null;

  /** IP address of the requesting side as the proxy settings resolve it (direct authentication: what the application passed on), shown when approving from another device. */
  @Column({ type: 'varchar', length: 45, name: 'requester_ip', nullable: true })
  requesterIp: string | null;

  /** The e-mail's Message-ID (random, the same on every send of this attempt's e-mail, so mailboxes deduplicate a resend). */
  @Column({ type: 'uuid', name: 'message_id', default: () => 'gen_random_uuid()' })
  messageId: string;

  /** True when no e-mail may be sent (blocked user): the attempt looks like any other to the caller. */
  @Column({ type: 'boolean', name: 'mail_suppressed', default: false })
  mailSuppressed: boolean;

  /** Correlates the worker's log lines with the request that created the attempt. */
  @Column({ type: 'varchar', length: 64, name: 'request_id', nullable: true })
  requestId: string | null;

  /** The user the link logged in (set when an autologin walk starts). */
  @Column({ type: 'uuid', name: 'user_id', nullable: true })
  userId: string | null;

  /** Autologin: SHA-256 of the token that continues the walk through the organization's domains. */
  @Column({ type: 'bytea', name: 'autologin_walk_hash', nullable: true })
  autologinWalkHash: Buffer | null;

  /** Autologin: SHA-256 of the cookie set in the browser that pressed Continue; only that browser continues the walk. */
  @Column({ type: 'bytea', name: 'autologin_browser_hash', nullable: true })
  autologinBrowserHash: Buffer | null;

  /** Autologin: callback URLs still to visit before the original redirect_uri. */
  @Column({ type: 'text', array: true, name: 'autologin_remaining', nullable: true })
  autologinRemaining: string[] | null;

  @Column({ ...TIMESTAMP, name: 'expires_at' })
  expiresAt: Date;

  @Column({ ...NULLABLE_TIMESTAMP, name: 'used_at' })
  usedAt: Date | null;

  @Column({ ...NULLABLE_TIMESTAMP, name: 'mail_queued_at' })
  mailQueuedAt: Date | null;

  @Column({ ...NULLABLE_TIMESTAMP, name: 'mail_sent_at' })
  mailSentAt: Date | null;

  /** When the worker gave up sending the e-mail (MAIL_ATTEMPTS failed deliveries). */
  @Column({ ...NULLABLE_TIMESTAMP, name: 'mail_failed_at' })
  mailFailedAt: Date | null;

  @CreateDateColumn({ ...TIMESTAMP, name: 'created_at' })
  createdAt: Date;
}
