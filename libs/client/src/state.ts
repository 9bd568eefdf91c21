import { createHash, createHmac, randomBytes, randomFillSync, timingSafeEqual } from 'node:crypto';
import type { CryptoProvider } from '@sesame/client-core';

/**
 * Signed states, `nonce.timestamp.signature` (see docs/autologin.md, "Checking state on every
 * domain"):
 * - nonce: 16 random bytes, base64url (22 characters);
 * - timestamp: the creation time in seconds since the epoch, decimal;
 * - signature: base64url(HMAC-SHA256(key = the client secret, message = "nonce.timestamp")).
 * Every domain of the application knows the client secret, so every domain can check that a state
 * was made by the application and is recent, also when the login started on another domain.
 */
export function createSignedState(secret: string, now: number = Date.now()): string {
  const nonce = randomBytes(16).toString('base64url');
  const timestamp = String(Math.floor(now / 1000));
  return `${nonce}.${timestamp}.${sign(secret, `${nonce}.${timestamp}`)}`;
}

/** Allowed clock difference between the application's servers, in seconds. */
const CLOCK_SKEW_SECONDS = 60;

/** True when `state` is a signed state of this application at most `maxAgeSeconds` old. */
export function verifySignedState(secret: string, state: string, maxAgeSeconds: number, now: number = Date.now()): boolean {
  const match = /^([A-Za-z0-9_-]{16,64})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(state);
  if (!match) return false;
  const [, nonce, timestamp, signature] = match;
  if (!safeEqual(signature, sign(secret, `${nonce}.${timestamp}`))) return false;
  const age = Math.floor(now / 1000) - Number(timestamp);
  return age >= -CLOCK_SKEW_SECONDS && age <= maxAgeSeconds;
}

function sign(secret: string, message: string): string {
  return createHmac('sha256', secret).update(message).digest('base64url');
}

/** Constant-time comparison of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right) && a.length === b.length;
}

/** Random bytes and SHA-256 from node:crypto, for the shared PKCE helpers. */
export const nodeCrypto: CryptoProvider = {
  getRandomValues: (array) => randomFillSync(array),
  sha256: async (data) => new Uint8Array(createHash('sha256').update(data).digest()),
};
