import type { WebhookEventType } from './webhook-queries';

/**
 * Every event type an endpoint can take, in the API's order, with when it is sent. The keys are the
 * API's enum (the generated type): a type the API adds fails the build until it is described here.
 */
const WORDS: Record<WebhookEventType, string> = {
  'user.created': 'a login created the user (their first login in the organization)',
  'user.signed_in': 'every completed login',
  'login.failed': 'a link or code of a sign-in that can no longer complete was used',
  'login.locked': 'the fifth wrong code stopped a sign-in',
  'user.blocked': 'a user was blocked',
  'user.unblocked': 'a user was unblocked',
  'user.deleted': 'a user was deleted',
  'passkey.registered': 'a user registered a passkey',
  'passkey.removed': "a user's passkey was removed",
  'application.secret_rotated': "an application's client secret was replaced",
  'member.added': 'a member was invited to the tenant',
  'member.role_changed': "a member's role changed",
  'member.removed': 'a member was removed',
  'api_key.created': 'an API key was made',
  'api_key.revoked': 'an API key was revoked',
  'organization.created': 'an organization was created',
  'organization.updated': "an organization's settings changed",
  'organization.deleted': 'an organization was deleted, with its users, applications and keys',
};

export const EVENT_TYPES = Object.keys(WORDS) as WebhookEventType[];

export function eventTypeWords(type: WebhookEventType): string {
  return WORDS[type];
}

/** "All events", or the types an endpoint takes. */
export function eventTypesSummary(types: readonly string[]): string {
  return types.length === 0 ? 'All events' : types.join(', ');
}
