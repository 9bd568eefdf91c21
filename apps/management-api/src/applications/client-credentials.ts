import { ClientSecretVerifier, randomSecret, SecretBox } from '@sesame/common';

/** Client ids and secrets use only base64url characters, so clients that skip the RFC 6749 §2.3.1 form-encoding work too. */
export function generateClientId(): string {
  return randomSecret('', 18);
}

export interface ClientSecret {
  secret: string;
  verifier: Buffer;
  encrypted: string;
}

/**
 * A new client secret: its HMAC verifier for authentication, and the secret encrypted so the
 * integration page can show it again. The client id is the associated data, so a sealed secret
 * cannot be moved to another application.
 */
export function generateClientSecret(box: SecretBox, verifiers: ClientSecretVerifier, clientId: string): ClientSecret {
  const secret = randomSecret('cs_');
  return { secret, verifier: verifiers.of(secret), encrypted: box.encrypt(secret, clientId) };
}
