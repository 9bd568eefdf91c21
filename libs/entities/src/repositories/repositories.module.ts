import { Module } from '@nestjs/common';
import { ApprovalNumbers, approvalNumbersProvider, loginCodesProvider, secretBoxProvider } from '@sesame/common';
import { AccessTokenRepository } from './access-token.repository';
import { ApiKeyRepository } from './api-key.repository';
import { ApplicationRepository } from './application.repository';
import { AuditEventRepository } from './audit-event.repository';
import { AuthorizationCodeRepository } from './authorization-code.repository';
import { EmailThrottleRepository } from './email-throttle.repository';
import { LoginAttemptRepository } from './login-attempt.repository';
import { OrganizationRepository } from './organization.repository';
import { PasskeyChallengeRepository } from './passkey-challenge.repository';
import { PasskeyRepository } from './passkey.repository';
import { UserPasskeys } from '../passkeys/user-passkeys.service';
import { SigningKeyRepository } from './signing-key.repository';
import { TenantMemberRepository } from './tenant-member.repository';
import { TenantRepository } from './tenant.repository';
import { Transactions } from './transactions';
import { UserRepository } from './user.repository';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';
import { WebhookEventRepository } from './webhook-event.repository';

/** Every table's repository (all the SQL the apps run) and the transactions that span them. */
const REPOSITORIES = [
  AccessTokenRepository,
  ApiKeyRepository,
  ApplicationRepository,
  AuditEventRepository,
  AuthorizationCodeRepository,
  EmailThrottleRepository,
  LoginAttemptRepository,
  OrganizationRepository,
  PasskeyChallengeRepository,
  PasskeyRepository,
  SigningKeyRepository,
  TenantMemberRepository,
  TenantRepository,
  Transactions,
  UserRepository,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  WebhookEventRepository,
];

@Module({
  providers: [...REPOSITORIES, UserPasskeys, secretBoxProvider, loginCodesProvider, approvalNumbersProvider],
  exports: [...REPOSITORIES, UserPasskeys, ApprovalNumbers],
})
export class RepositoriesModule {}
