import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { ClientsModule } from '../clients/clients.module';
import { DirectAuthModule } from '../direct-auth/direct-auth.module';
import { UsageCountersModule } from '@sesame/usage';
import { PasskeysModule } from '../passkeys/passkeys.module';
import { HostedRequests } from './hosted-requests';
import { LoginPageController } from './login-page.controller';
import { LoginPageService } from './login-page.service';
import { PasskeyPageService } from './passkey-page.service';
import { PasskeyRegistrationService } from './passkey-registration.service';
import { PasskeySignInService } from './passkey-sign-in.service';
import { PasskeyController } from './passkey.controller';

/** The hosted login page, /v1/authorize, and its passkey requests, /v1/authorize/passkey/*. */
@Module({
  imports: [ClientsModule, DirectAuthModule, PasskeysModule, RepositoriesModule, UsageCountersModule],
  controllers: [LoginPageController, PasskeyController],
  providers: [LoginPageService, HostedRequests, PasskeyPageService, PasskeySignInService, PasskeyRegistrationService],
})
export class LoginPageModule {}
