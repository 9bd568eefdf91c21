import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { APPLICATION_TYPES, ApplicationType } from '@sesame/common';
import { NULLABLE_TIMESTAMP, TIMESTAMP } from './columns';
import { Organization } from './organization.entity';

@Entity('application')
@Index('application_client_id', ['clientId'], { unique: true })
@Index('application_organization_page', ['organizationId', 'createdAt', 'id'])
export class Application {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid', name: 'organization_id' })
  organizationId: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Organization;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'enum', enum: APPLICATION_TYPES, enumName: 'application_type' })
  type: ApplicationType;

  @Column({ type: 'varchar', length: 64, name: 'client_id' })
  clientId: string;

  /**
   * Legacy verifier: the bare SHA-256 of the client secret, as stored before HMAC verifiers. Still
   * accepted while a row has no `clientSecretVerifier`; `npm run cli -- migrate` replaces it.
   */
  @Column({ type: 'bytea', name: 'client_secret_hash', nullable: true })
  clientSecretHash: Buffer | null;

  /** HMAC-SHA256 of the client secret under a key derived from SECRETS_KEY (web apps): what client authentication compares. */
  @Column({ type: 'bytea', name: 'client_secret_verifier', nullable: true })
  clientSecretVerifier: Buffer | null;

  /** The client secret encrypted with SECRETS_KEY, so the integration page can show it again. */
  @Column({ type: 'text', name: 'client_secret_encrypted', nullable: true })
  clientSecretEncrypted: string | null;

  /** The secret replaced by the last rotation, still accepted until `previousClientSecretExpiresAt`. */
  @Column({ type: 'bytea', name: 'previous_client_secret_verifier', nullable: true })
  previousClientSecretVerifier: Buffer | null;

  /** The previous secret, sealed like the current one, so a SECRETS_KEY rotation can recompute its verifier. */
  @Column({ type: 'text', name: 'previous_client_secret_encrypted', nullable: true })
  previousClientSecretEncrypted: string | null;

  @Column({ ...NULLABLE_TIMESTAMP, name: 'previous_client_secret_expires_at' })
  previousClientSecretExpiresAt: Date | null;

  /**
   * OpenID Connect Dynamic Registration's `id_token_encrypted_response_alg`: `dir` (web apps' default)
   * encrypts the id_token with the SHA-256 of the client secret; null sends it signed only.
   */
  @Column({ type: 'varchar', length: 16, name: 'id_token_encrypted_response_alg', nullable: true })
  idTokenEncryptedResponseAlg: 'dir' | null;

  /** WHATWG-serialised callback URLs (see validateCallbackUrl). */
  @Column({ type: 'text', array: true, name: 'callback_urls', default: () => "'{}'" })
  callbackUrls: string[];

  @CreateDateColumn({ ...TIMESTAMP, name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ ...TIMESTAMP, name: 'updated_at' })
  updatedAt: Date;
}
