import { Role } from '@sesame/common';
import { NewWebhookEvent, Organization } from '@sesame/entities';

/** What a receiver is told of a key: never its hash, nor the key. */
export interface ReportedKey {
  id: string;
  name: string;
  prefix: string;
  role: Role;
  organizationId: string | null;
}

/** What a receiver is told of a member. */
export interface ReportedMember {
  id: string;
  tenantId: string;
  email: string;
  role: Role;
}

/** `api_key.created` or `api_key.revoked`: an organization's key in its organization (endpoints limited to it get it), a tenant key tenant-wide. */
export function apiKeyEvent(type: 'api_key.created' | 'api_key.revoked', tenantId: string, key: ReportedKey, extra = {}): NewWebhookEvent {
  const { id, name, prefix, role, organizationId } = key;
  return {
    type,
    scope: organizationId ? { organizationId } : { tenantId },
    data: { apiKey: { id, name, prefix, role, organizationId }, ...extra },
  };
}

/** `member.added`, `member.role_changed` or `member.removed`, tenant-wide. */
export function memberEvent(
  type: 'member.added' | 'member.role_changed' | 'member.removed',
  member: ReportedMember,
  extra = {},
): NewWebhookEvent {
  return {
    type,
    scope: { tenantId: member.tenantId },
    data: { member: { id: member.id, email: member.email, role: member.role }, ...extra },
  };
}

/**
 * `organization.created` or `organization.updated` in the organization (endpoints limited to it get
 * it too); `organization.deleted` tenant-wide, since the organization's own endpoints go with it.
 */
export function organizationEvent(
  type: 'organization.created' | 'organization.updated' | 'organization.deleted',
  organization: Organization,
): NewWebhookEvent {
  const { id, tenantId, name, whitelistDomains, autologin, linkTtlSeconds, passkeys } = organization;
  return {
    type,
    scope: type === 'organization.deleted' ? { tenantId } : { organizationId: id },
    data: { organization: { id, name, whitelistDomains, autologin, linkTtlSeconds, passkeys } },
  };
}
