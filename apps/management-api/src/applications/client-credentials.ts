import { randomSecret, SecretBox, sha256 } from '@sesame/common';

/** Client ids and secrets use only base64url characters, so clients that skip the RFC 6749 §2.3.1 form-encoding work too. */
export function generateClientId(): string {
  return randomSecret('', 18);
}

export interface ClientSecret {
  secret: string;
  hash: Buffer;
  encrypted: string;
}

/**
 * A new client secret: hashed for authentication (the hash is also the id_token JWE key) and
 * encrypted so the integration page can show it again. The client id is the associated data,
 * so a sealed secret cannot be moved to another application.
 */
export function generateClientSecret(box: SecretBox, clientId: string): ClientSecret {
  const secret = randomSecret('cs_');
  return { secret, hash: sha256(secret), encrypted: box.encrypt(secret, clientId) };
}
