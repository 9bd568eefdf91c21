import { Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyVerifier } from './api-key-verifier';

/** API-key authentication; the app registers ApiKeyGuard as a global guard (opt out with @Public()). */
@Module({
  providers: [ApiKeyVerifier, ApiKeyGuard],
  exports: [ApiKeyVerifier, ApiKeyGuard],
})
export class ApiKeyAuthModule {}
