import { Buffer } from 'node:buffer';
import { formComponent } from '@sesame/client-core';

/** `Basic base64(urlencode(client_id):urlencode(client_secret))` (RFC 6749 §2.3.1). */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${formComponent(clientId)}:${formComponent(clientSecret)}`).toString('base64')}`;
}
