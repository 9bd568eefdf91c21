import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random secret of 256 bits, base64url-encoded, optionally with a readable type prefix. */
export function randomSecret(prefix = '', bytes = 32): string {
  return prefix + randomBytes(bytes).toString('base64url');
}

/** What randomSecret() makes without a prefix: 32 bytes, base64url (codes, link tokens, access tokens). */
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** True for a value shaped like an unprefixed secret; anything else need not be looked up. */
export function isSecretShaped(value: unknown): value is string {
  return typeof value === 'string' && SECRET_SHAPE.test(value);
}

/** SHA-256 in one call: no Hash object, which for a short input costs more than the hashing itself. */
export function sha256(value: string | Buffer): Buffer {
  return hash('sha256', value, 'buffer');
}

/** Constant-time comparison of two secrets of any length (both are hashed to a fixed length first). */
export function secretsEqual(a: string | Buffer, b: string | Buffer): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

/** Constant-time comparison of two equal-length digests. */
export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
