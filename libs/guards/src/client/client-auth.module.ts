import { Module } from '@nestjs/common';
import { clientSecretVerifierProvider } from '@sesame/common';
import { ClientAuthGuard } from './client-auth.guard';
import { ClientVerifier } from './client-verifier';

@Module({ providers: [ClientVerifier, ClientAuthGuard, clientSecretVerifierProvider], exports: [ClientVerifier, ClientAuthGuard] })
export class ClientAuthModule {}
