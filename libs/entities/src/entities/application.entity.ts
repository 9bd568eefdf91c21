import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { APPLICATION_TYPES, ApplicationType } from '@sesame/common';
import { TIMESTAMP } from './columns';
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

  /** SHA-256 of the client secret (web apps): checked on every client authentication, and the id_token JWE key. */
  @Column({ type: 'bytea', name: 'client_secret_hash', nullable: true })
  clientSecretHash: Buffer | null;

  /** The client secret encrypted with SECRETS_KEY, so the integration page can show it again. */
  @Column({ type: 'text', name: 'client_secret_encrypted', nullable: true })
  clientSecretEncrypted: string | null;

  /** WHATWG-serialised callback URLs (see validateCallbackUrl). */
  @Column({ type: 'text', array: true, name: 'callback_urls', default: () => "'{}'" })
  callbackUrls: string[];

  @CreateDateColumn({ ...TIMESTAMP, name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ ...TIMESTAMP, name: 'updated_at' })
  updatedAt: Date;
}
