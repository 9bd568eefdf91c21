import { createHmac } from 'node:crypto';
import { Provider } from '@nestjs/common';
import { SESAME_CONFIG } from '../config/config.module';
import { SesameConfig } from '../config/sesame-config';
import { digestsEqual } from './secrets';

/**
 * What the database keeps to check a client secret: HMAC-SHA256 of the secret under a key derived
 * from SECRETS_KEY for this purpose alone. A database read alone then neither checks guesses nor
 * yields the id_token encryption key (the secret's bare SHA-256), which it did when that hash
 * was the stored verifier.
 */
export class ClientSecretVerifier {
  private readonly key: Buffer;

  constructor(secretsKey: Buffer) {
    this.key = createHmac('sha256', secretsKey).update('sesame client secret verifier v1').digest();
  }

  of(secret: string): Buffer {
    return createHmac('sha256', this.key).update(secret, 'utf8').digest();
  }

  /** Constant time: both sides are 32-byte digests. */
  matches(secret: string, verifier: Buffer | null): boolean {
    return verifier !== null && digestsEqual(this.of(secret), verifier);
  }
}

/** ClientSecretVerifier keyed from SECRETS_KEY. */
export const clientSecretVerifierProvider: Provider = {
  provide: ClientSecretVerifier,
  inject: [SESAME_CONFIG],
  useFactory: (config: SesameConfig) => new ClientSecretVerifier(config.secrets.key),
};
