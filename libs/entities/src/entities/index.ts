import { AccessToken } from './access-token.entity';
import { AuditEvent } from './audit-event.entity';
import { ApiKey } from './api-key.entity';
import { Application } from './application.entity';
import { AuthorizationCode } from './authorization-code.entity';
import { EmailThrottle } from './email-throttle.entity';
import { LoginAttempt } from './login-attempt.entity';
import { Organization } from './organization.entity';
import { SigningKey } from './signing-key.entity';
import { Tenant } from './tenant.entity';
import { TenantMember } from './tenant-member.entity';
import { User } from './user.entity';

export * from './access-token.entity';
export * from './audit-event.entity';
export * from './api-key.entity';
export * from './application.entity';
export * from './authorization-code.entity';
export * from './email-throttle.entity';
export * from './login-attempt.entity';
export * from './organization.entity';
export * from './signing-key.entity';
export * from './tenant.entity';
export * from './tenant-member.entity';
export * from './user.entity';

/** Every entity, registered explicitly (no globs). */
export const ENTITIES = [
  Tenant,
  Organization,
  User,
  ApiKey,
  Application,
  LoginAttempt,
  EmailThrottle,
  AuthorizationCode,
  AccessToken,
  SigningKey,
  TenantMember,
  AuditEvent,
];
