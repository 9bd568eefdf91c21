import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { NULLABLE_TIMESTAMP, TIMESTAMP } from './columns';

/** An ES256 key that signs id_tokens. The newest unretired key signs; retired keys stay published for a while. */
@Entity('signing_key')
export class SigningKey {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  kid: string;

  @Column({ type: 'varchar', length: 16 })
  algorithm: string;

  /** PKCS#8 PEM encrypted with SECRETS_KEY. */
  @Column({ type: 'text', name: 'private_key_encrypted' })
  privateKeyEncrypted: string;

  @Column({ type: 'jsonb', name: 'public_jwk' })
  publicJwk: Record<string, unknown>;

  @CreateDateColumn({ ...TIMESTAMP, name: 'created_at' })
  createdAt: Date;

  @Column({ ...NULLABLE_TIMESTAMP, name: 'retired_at' })
  retiredAt: Date | null;
}
