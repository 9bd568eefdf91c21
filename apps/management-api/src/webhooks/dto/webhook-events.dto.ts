import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ROLES } from '@sesame/common';
import { PASSKEY_POLICIES } from '@sesame/entities';

// The bodies Sesame POSTs to webhook endpoints, as components of the OpenAPI document
// (`WebhookEvent` is their union, by `type`). Receivers never call these: they are documentation
// for generated types, checked against every delivery of the e2e tests.

const FLOWS = ['direct', 'hosted'];

export class WebhookUser {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty({ format: 'uuid' }) organizationId: string;
}

export class WebhookMember {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty({ enum: ROLES }) role: string;
}

export class WebhookApiKey {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The first characters of the key, as the console shows them (never the key).' }) prefix: string;
  @ApiProperty({ enum: ROLES }) role: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Null: a tenant key.' }) organizationId: string | null;
}

export class WebhookApplication {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() clientId: string;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'uuid' }) organizationId: string;
}

export class WebhookOrganization {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: [String] }) whitelistDomains: string[];
  @ApiProperty() autologin: boolean;
  @ApiProperty({ description: 'How long a login link lives, in seconds.' }) linkTtlSeconds: number;
  @ApiProperty({ enum: PASSKEY_POLICIES }) passkeys: string;
}

export class WebhookPasskey {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Where it was made, as the browser said (e.g. "Chrome on macOS").' }) name: string;
  @ApiProperty({ enum: ['singleDevice', 'multiDevice'], description: 'multiDevice: synced between the user’s devices.' })
  deviceType: string;
  @ApiProperty({ description: 'Whether it is backed up (synced) now.' }) backedUp: boolean;
}

export class PingData {
  @ApiProperty({ format: 'uuid' }) endpointId: string;
}

export class UserEventData {
  @ApiProperty({ type: WebhookUser }) user: WebhookUser;
}

export class SignedInData extends UserEventData {
  @ApiProperty({ format: 'uuid' }) applicationId: string;
  @ApiProperty({ format: 'uuid' }) loginAttemptId: string;
  @ApiProperty({ enum: FLOWS }) flow: string;
  @ApiProperty({ format: 'date-time' }) signedInAt: string;
}

class LoginAttemptData {
  @ApiProperty({ format: 'uuid' }) loginAttemptId: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty({ format: 'uuid' }) organizationId: string;
  @ApiProperty({ format: 'uuid' }) applicationId: string;
  @ApiProperty({ enum: FLOWS }) flow: string;
}

export class LoginFailedData extends LoginAttemptData {
  @ApiProperty({ enum: ['expired', 'used', 'locked', 'blocked'] }) reason: string;
  @ApiProperty({ format: 'date-time' }) failedAt: string;
}

export class LoginLockedData extends LoginAttemptData {
  @ApiProperty({ format: 'date-time' }) lockedAt: string;
}

export class PasskeyRegisteredData extends UserEventData {
  @ApiProperty({ type: WebhookPasskey }) passkey: WebhookPasskey;
  @ApiProperty({ format: 'date-time' }) registeredAt: string;
}

export class PasskeyRemovedData extends UserEventData {
  @ApiProperty({ type: WebhookPasskey }) passkey: WebhookPasskey;
  @ApiProperty({ format: 'date-time' }) removedAt: string;
}

export class SecretRotatedData {
  @ApiProperty({ type: WebhookApplication }) application: WebhookApplication;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Null: the old secret stopped at once.' })
  previousSecretExpiresAt: string | null;
  @ApiProperty() accessTokensRevoked: boolean;
}

export class MemberAddedData {
  @ApiProperty({ type: WebhookMember }) member: WebhookMember;
  @ApiProperty({ type: String, nullable: true, description: 'A member’s address or a key’s name.' }) invitedBy: string | null;
}

export class MemberRoleChangedData {
  @ApiProperty({ type: WebhookMember }) member: WebhookMember;
  @ApiProperty({ enum: ROLES }) previousRole: string;
}

export class MemberRemovedData {
  @ApiProperty({ type: WebhookMember }) member: WebhookMember;
  @ApiPropertyOptional({ enum: ['invitation_not_sent'] }) reason?: string;
}

export class ApiKeyEventData {
  @ApiProperty({ type: WebhookApiKey }) apiKey: WebhookApiKey;
  @ApiPropertyOptional({ enum: ['creator_removed'], description: 'Revoked with the member who created it.' }) reason?: string;
}

export class OrganizationEventData {
  @ApiProperty({ type: WebhookOrganization, description: 'Its settings after the change (as it was, for organization.deleted).' })
  organization: WebhookOrganization;
}

/** The envelope of the event types that carry `data`. */
function webhookEventOf(types: string[], data: new () => object) {
  class WebhookEventOfTypes {
    @ApiProperty({ enum: types }) type: string;
    @ApiProperty({ format: 'date-time', description: 'When it happened (`webhook-timestamp` is the try’s time).' }) timestamp: string;
    @ApiProperty({ type: data }) data: object;
  }
  return WebhookEventOfTypes;
}

export class PingEvent extends webhookEventOf(['ping'], PingData) {}
export class UserEvent extends webhookEventOf(['user.created', 'user.blocked', 'user.unblocked', 'user.deleted'], UserEventData) {}
export class UserSignedInEvent extends webhookEventOf(['user.signed_in'], SignedInData) {}
export class LoginFailedEvent extends webhookEventOf(['login.failed'], LoginFailedData) {}
export class LoginLockedEvent extends webhookEventOf(['login.locked'], LoginLockedData) {}
export class PasskeyRegisteredEvent extends webhookEventOf(['passkey.registered'], PasskeyRegisteredData) {}
export class PasskeyRemovedEvent extends webhookEventOf(['passkey.removed'], PasskeyRemovedData) {}
export class ApplicationSecretRotatedEvent extends webhookEventOf(['application.secret_rotated'], SecretRotatedData) {}
export class MemberAddedEvent extends webhookEventOf(['member.added'], MemberAddedData) {}
export class MemberRoleChangedEvent extends webhookEventOf(['member.role_changed'], MemberRoleChangedData) {}
export class MemberRemovedEvent extends webhookEventOf(['member.removed'], MemberRemovedData) {}
export class ApiKeyEvent extends webhookEventOf(['api_key.created', 'api_key.revoked'], ApiKeyEventData) {}
export class OrganizationEvent extends webhookEventOf(
  ['organization.created', 'organization.updated', 'organization.deleted'],
  OrganizationEventData,
) {}

/** Every event body, in the order of docs/webhooks.md. */
export const WEBHOOK_EVENT_MODELS = [
  PingEvent,
  UserEvent,
  UserSignedInEvent,
  LoginFailedEvent,
  LoginLockedEvent,
  PasskeyRegisteredEvent,
  PasskeyRemovedEvent,
  ApplicationSecretRotatedEvent,
  MemberAddedEvent,
  MemberRoleChangedEvent,
  MemberRemovedEvent,
  ApiKeyEvent,
  OrganizationEvent,
];
