import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks (standardwebhooks.com): a secret is `whsec_` and base64 of its key bytes; a
 * delivery carries `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`, a
 * space-separated list of `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per secret that
 * signs (two during a rotation's overlap). Receivers verify with the specification's libraries.
 */
const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three headers of a delivery, signed with every secret given (current first). */
export function webhookHeaders(secrets: string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signWebhook(secret, id, timestamp, body)).join(' '),
  };
}

/** The body of every delivery of an event, the same on every try: its type, when it happened, and its data. */
export function webhookBody(type: string, createdAt: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: createdAt.toISOString(), data });
}
