import { createCipheriv, KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * The two JOSE operations the id_token needs, on node:crypto directly: a compact JWS with ES256
 * (RFC 7515, RFC 7518 §3.4) and a compact JWE with `dir` + `A256GCM` (RFC 7516, RFC 7518 §5.3).
 * Synchronous and without WebCrypto's job machinery, this is most of verify's CPU time saved;
 * tests check the output with the `jose` library.
 */
export function signEs256(header: Record<string, unknown>, payload: Record<string, unknown>, privateKey: KeyObject): string {
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  const signature = sign('sha256', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${signingInput}.${signature.toString('base64url')}`;
}

/** Encrypts `plaintext` for the holder of the 256-bit `key`; the protected header is the additional authenticated data. */
export function encryptDirA256Gcm(plaintext: string, key: Buffer, header: Record<string, unknown>): string {
  const protectedHeader = base64url(JSON.stringify({ alg: 'dir', enc: 'A256GCM', ...header }));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(protectedHeader, 'ascii'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${protectedHeader}..${iv.toString('base64url')}.${ciphertext.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
