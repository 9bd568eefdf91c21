import { Module } from '@nestjs/common';
import { clientSecretVerifierProvider } from '@sesame/common';
import { RepositoriesModule } from '@sesame/entities';
import { ClientAuthGuard } from './client-auth.guard';
import { ClientVerifier } from './client-verifier';

@Module({
  imports: [RepositoriesModule],
  providers: [ClientVerifier, ClientAuthGuard, clientSecretVerifierProvider],
  exports: [ClientVerifier, ClientAuthGuard],
})
export class ClientAuthModule {}
