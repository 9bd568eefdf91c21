import { Module } from '@nestjs/common';
import { loginCodesProvider } from '@sesame/common';
import { RepositoriesModule } from '@sesame/entities';
import { MailQueueModule } from '@sesame/queue';
import { UsageCountersModule } from '@sesame/usage';
import { ClientsModule } from '../clients/clients.module';
import { TokensModule } from '../tokens/tokens.module';
import { AutologinController } from './autologin.controller';
import { AutologinService } from './autologin.service';
import { DirectAuthController } from './direct-auth.controller';
import { DirectAuthService } from './direct-auth.service';
import { LoginApprovalService } from './login-approval.service';
import { LoginAttemptEvents } from './login-attempt-events';
import { LoginAttemptService } from './login-attempt.service';
import { LoginCodeService } from './login-code.service';
import { LoginCompletionService } from './login-completion.service';
import { LoginWebhookEvents } from './login-webhook-events';
import { LoginLinkController } from './login-link.controller';
import { LoginLinkService } from './login-link.service';

/** Direct authentication: authenticate_direct, login attempt status, the e-mailed link's pages and autologin. */
@Module({
  imports: [RepositoriesModule, ClientsModule, TokensModule, MailQueueModule, UsageCountersModule],
  controllers: [DirectAuthController, LoginLinkController, AutologinController],
  providers: [
    DirectAuthService,
    LoginAttemptService,
    LoginLinkService,
    LoginCompletionService,
    LoginWebhookEvents,
    LoginCodeService,
    LoginApprovalService,
    LoginAttemptEvents,
    AutologinService,
    loginCodesProvider,
  ],
  exports: [LoginAttemptService, LoginCodeService, LoginLinkService, LoginApprovalService, LoginAttemptEvents, LoginCompletionService],
})
export class DirectAuthModule {}
