import { Module } from '@nestjs/common';
import { MemberRoleGuard } from '../member/allow-members';
import { MemberVerifier } from '../member/member-verifier';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyVerifier } from './api-key-verifier';

/**
 * Management API authentication: API keys and console member tokens. The app registers ApiKeyGuard
 * (opt out with @Public()) and, after it, MemberRoleGuard as global guards.
 */
@Module({
  providers: [ApiKeyVerifier, MemberVerifier, ApiKeyGuard, MemberRoleGuard],
  exports: [ApiKeyVerifier, MemberVerifier, ApiKeyGuard, MemberRoleGuard],
})
export class ApiKeyAuthModule {}
