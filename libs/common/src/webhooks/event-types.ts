/** The events a webhook endpoint can subscribe to (docs/webhooks.md has an example body of each). */
export const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.signed_in',
  'login.failed',
  'login.locked',
  'user.blocked',
  'user.unblocked',
  'user.deleted',
  'passkey.registered',
  'passkey.removed',
  'application.secret_rotated',
  'member.added',
  'member.role_changed',
  'member.removed',
  'api_key.created',
  'api_key.revoked',
  'organization.created',
  'organization.updated',
  'organization.deleted',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The test event `POST …/webhook_endpoint/{id}/test` sends to one endpoint, whatever it subscribed to. */
export const WEBHOOK_PING = 'ping';
