import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { MailQueueModule } from '@sesame/queue';
import { UsageCountersModule } from '@sesame/usage';
import { EndpointDisabledMailer } from './endpoint-disabled.mailer';
import { EndpointDisabledProcessor } from './endpoint-disabled.processor';
import { LoginLinkMailer } from './login-link.mailer';
import { LoginLinkProcessor } from './login-link.processor';
import { MailSweeper } from './mail-sweeper';
import { MemberInvitationMailer } from './member-invitation.mailer';
import { MemberInvitationProcessor } from './member-invitation.processor';
import { NoticeJobs } from './notice-jobs';
import { PasskeyRegisteredMailer } from './passkey-registered.mailer';
import { PasskeyRegisteredProcessor } from './passkey-registered.processor';
import { SmtpTransport } from './smtp-transport';

@Module({
  imports: [RepositoriesModule, MailQueueModule, UsageCountersModule],
  providers: [
    LoginLinkMailer,
    LoginLinkProcessor,
    MemberInvitationMailer,
    MemberInvitationProcessor,
    EndpointDisabledMailer,
    EndpointDisabledProcessor,
    PasskeyRegisteredMailer,
    PasskeyRegisteredProcessor,
    NoticeJobs,
    MailSweeper,
    SmtpTransport,
  ],
  exports: [MailSweeper, SmtpTransport],
})
export class MailModule {}
