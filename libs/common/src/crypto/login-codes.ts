import { createHmac } from 'node:crypto';
import { Provider } from '@nestjs/common';
import { SESAME_CONFIG } from '../config/config.module';
import { SesameConfig } from '../config/sesame-config';
import { digestsEqual } from './secrets';

const CODE_DIGITS = 6;
const CODE_SPACE = 10 ** CODE_DIGITS;

/**
 * The 6-digit code printed beside a login link. It is derived from the link token (so the mail
 * worker can write it from the sealed token alone, and it lives exactly as long as the link), and
 * the database keeps only an HMAC of it under a key derived from SECRETS_KEY: a bare SHA-256 of
 * one of a million codes would be reversed offline from a database read.
 */
export class LoginCodes {
  private readonly derivationKey: Buffer;
  private readonly verifierKey: Buffer;

  constructor(secretsKey: Buffer) {
    this.derivationKey = createHmac('sha256', secretsKey).update('sesame login code v1').digest();
    this.verifierKey = createHmac('sha256', secretsKey).update('sesame login code verifier v1').digest();
  }

  /** The code of a link token: six digits (the modulo bias of 2^32 over 10^6 is below 0.03 %). */
  codeFor(token: string): string {
    const digest = createHmac('sha256', this.derivationKey).update(token, 'utf8').digest();
    return String(digest.readUInt32BE(0) % CODE_SPACE).padStart(CODE_DIGITS, '0');
  }

  /** What the attempt stores: bound to its link token's hash, so equal codes of two attempts look unrelated. */
  verifier(tokenHash: Buffer, code: string): Buffer {
    return createHmac('sha256', this.verifierKey).update(tokenHash).update(code, 'utf8').digest();
  }

  /** Constant time: both sides are 32-byte digests. */
  matches(tokenHash: Buffer, code: string, stored: Buffer | null): boolean {
    return stored !== null && digestsEqual(this.verifier(tokenHash, code), stored);
  }
}

/** A typed code as the six digits it stands for (spaces and dashes from copying are dropped), or null. */
export function normalizeLoginCode(typed: unknown): string | null {
  if (typeof typed !== 'string' || typed.length > 20) return null;
  const digits = typed.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
}

/** "123 456": easier to read and type, and copied whole with one double-click. */
export function formatLoginCode(code: string): string {
  return `${code.slice(0, 3)} ${code.slice(3)}`;
}

/** LoginCodes keyed from SECRETS_KEY. */
export const loginCodesProvider: Provider = {
  provide: LoginCodes,
  inject: [SESAME_CONFIG],
  useFactory: (config: SesameConfig) => new LoginCodes(config.secrets.key),
};
