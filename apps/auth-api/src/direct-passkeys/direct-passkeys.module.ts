import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { UsageCountersModule } from '@sesame/usage';
import { PasskeysModule } from '../passkeys/passkeys.module';
import { ClientsModule } from '../clients/clients.module';
import { DirectAuthModule } from '../direct-auth/direct-auth.module';
import { DirectPasskeyCallers } from './direct-passkey-context';
import { DirectPasskeyRegistrationService } from './direct-passkey-registration.service';
import { DirectPasskeySignInService } from './direct-passkey-sign-in.service';
import { DirectPasskeysController } from './direct-passkeys.controller';

/** Passkeys on applications' own pages (direct authentication): /v1/passkey_direct/*. */
@Module({
  imports: [ClientsModule, DirectAuthModule, PasskeysModule, RepositoriesModule, UsageCountersModule],
  controllers: [DirectPasskeysController],
  providers: [DirectPasskeyCallers, DirectPasskeySignInService, DirectPasskeyRegistrationService],
})
export class DirectPasskeysModule {}
