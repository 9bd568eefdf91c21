import { createHmac, randomInt } from 'node:crypto';
import { Provider } from '@nestjs/common';
import { SESAME_CONFIG } from '../config/config.module';
import { SesameConfig } from '../config/sesame-config';
import { digestsEqual } from './secrets';

const LOWEST = 10;
const SPAN = 90;

/**
 * The approval number of a login attempt: two digits (10–99) that only the requesting screen
 * shows. A person approving the attempt from another device types it, which proves they see that
 * screen; holding the e-mail does not help, since the number is never in it. Like the code, the
 * attempt stores only an HMAC of it under a key derived from SECRETS_KEY (90 values are reversed
 * at once from a bare hash).
 */
export class ApprovalNumbers {
  private readonly derivationKey: Buffer;
  private readonly verifierKey: Buffer;

  constructor(secretsKey: Buffer) {
    this.derivationKey = createHmac('sha256', secretsKey).update('sesame approval number v1').digest();
    this.verifierKey = createHmac('sha256', secretsKey).update('sesame approval number verifier v1').digest();
  }

  /** A fresh number, for a requester that keeps it (direct authentication answers it once). */
  draw(): string {
    return String(randomInt(LOWEST, LOWEST + SPAN));
  }

  /**
   * The number of the hosted page's browser, derived from the secret of its attempt cookie: the
   * page shows it again on every reload without Sesame storing it (the bias of 2^32 over 90 is negligible).
   */
  forBrowser(browserCookie: string): string {
    const digest = createHmac('sha256', this.derivationKey).update(browserCookie, 'utf8').digest();
    return String(LOWEST + (digest.readUInt32BE(0) % SPAN));
  }

  /** What the attempt stores: bound to its link token's hash, as the code's verifier is. */
  verifier(tokenHash: Buffer, approvalNumber: string): Buffer {
    return createHmac('sha256', this.verifierKey).update(tokenHash).update(approvalNumber, 'utf8').digest();
  }

  /** Constant time: both sides are 32-byte digests. */
  matches(tokenHash: Buffer, typed: string, stored: Buffer | null): boolean {
    return stored !== null && digestsEqual(this.verifier(tokenHash, typed), stored);
  }
}

/** A typed approval number as its two digits (surrounding spaces dropped), or null. */
export function normalizeApprovalNumber(typed: unknown): string | null {
  if (typeof typed !== 'string' || typed.length > 10) return null;
  const digits = typed.trim();
  return /^[1-9]\d$/.test(digits) ? digits : null;
}

/** ApprovalNumbers keyed from SECRETS_KEY. */
export const approvalNumbersProvider: Provider = {
  provide: ApprovalNumbers,
  inject: [SESAME_CONFIG],
  useFactory: (config: SesameConfig) => new ApprovalNumbers(config.secrets.key),
};
