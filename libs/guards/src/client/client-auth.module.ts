import { Module } from '@nestjs/common';
import { ClientAuthGuard } from './client-auth.guard';
import { ClientVerifier } from './client-verifier';

@Module({ providers: [ClientVerifier, ClientAuthGuard], exports: [ClientVerifier, ClientAuthGuard] })
export class ClientAuthModule {}
