import { asciiBytes, base64url } from './encoding';
import { CryptoProvider } from './platform';

/** `bytes` random bytes as base64url: 32 give a 43-character state or PKCE verifier. */
export function randomToken(crypto: CryptoProvider, bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** A PKCE pair (RFC 7636, S256): a 43-character verifier from 32 random bytes and its challenge. */
export async function createPkcePair(crypto: CryptoProvider): Promise<{ verifier: string; challenge: string }> {
  const verifier = randomToken(crypto);
  return { verifier, challenge: base64url(await crypto.sha256(asciiBytes(verifier))) };
}
