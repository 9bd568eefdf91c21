import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { MemberVerifier } from '../member/member-verifier';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyVerifier } from './api-key-verifier';

/**
 * Management API authentication: API keys and console member tokens. The app registers ApiKeyGuard
 * (opt out with @Public()) as a global guard, and after it its own access guard.
 */
@Module({
  imports: [RepositoriesModule],
  providers: [ApiKeyVerifier, MemberVerifier, ApiKeyGuard],
  exports: [ApiKeyVerifier, MemberVerifier, ApiKeyGuard],
})
export class ApiKeyAuthModule {}
