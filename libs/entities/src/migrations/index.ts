import { Initial1795343225561 } from './1795343225561-initial';
import { SecurityAndStandards1796100000000 } from './1796100000000-security-and-standards';
import { TenantMembers1796300000000 } from './1796300000000-tenant-members';
import { Retention1796400000000 } from './1796400000000-retention';
import { LoginCodes1796500000000 } from './1796500000000-login-codes';
import { LoginApproval1796500000001 } from './1796500000001-login-approval';
import { TokenOfCode1796600000000 } from './1796600000000-token-of-code';
import { OrderedLoginAttemptIds1796600000001 } from './1796600000001-ordered-login-attempt-ids';
import { AnyDeviceTrust1796700000000 } from './1796700000000-any-device-trust';
import { KeyRoles1796700000001 } from './1796700000001-key-roles';
import { Webhooks1796800000000 } from './1796800000000-webhooks';
import { WebhookRedelivery1796900000000 } from './1796900000000-webhook-redelivery';
import { Passkeys1797000000000 } from './1797000000000-passkeys';
import { DirectPasskeys1797100000000 } from './1797100000000-direct-passkeys';

/** Every migration, in order (registered explicitly, no globs). */
export const MIGRATIONS = [
  Initial1795343225561,
  SecurityAndStandards1796100000000,
  TenantMembers1796300000000,
  Retention1796400000000,
  LoginCodes1796500000000,
  LoginApproval1796500000001,
  TokenOfCode1796600000000,
  OrderedLoginAttemptIds1796600000001,
  AnyDeviceTrust1796700000000,
  KeyRoles1796700000001,
  Webhooks1796800000000,
  WebhookRedelivery1796900000000,
  Passkeys1797000000000,
  DirectPasskeys1797100000000,
];
