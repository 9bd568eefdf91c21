import { hash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43–128 characters of the unreserved set. */
export const CODE_VERIFIER_SHAPE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** The S256 challenge of a verifier, BASE64URL(SHA-256(verifier)); '' (which matches no challenge) for a malformed verifier. */
export function challengeOf(verifier: string): string {
  return CODE_VERIFIER_SHAPE.test(verifier) ? hash('sha256', verifier, 'base64url') : '';
}

/** True when BASE64URL(SHA-256(verifier)) equals the S256 challenge (RFC 7636 §4.6). */
export function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(challengeOf(verifier));
  const expected = Buffer.from(challenge);
  return computed.length > 0 && computed.length === expected.length && timingSafeEqual(computed, expected);
}
