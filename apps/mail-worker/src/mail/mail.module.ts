import { Module } from '@nestjs/common';
import { secretBoxProvider } from '@sesame/common';
import { MailQueueModule } from '@sesame/queue';
import { UsageCountersModule } from '@sesame/usage';
import { LoginLinkMailer } from './login-link.mailer';
import { LoginLinkProcessor } from './login-link.processor';
import { MailSweeper } from './mail-sweeper';
import { MemberInvitationMailer } from './member-invitation.mailer';
import { MemberInvitationProcessor } from './member-invitation.processor';
import { SmtpTransport } from './smtp-transport';

@Module({
  imports: [MailQueueModule, UsageCountersModule],
  providers: [LoginLinkMailer, LoginLinkProcessor, MemberInvitationMailer, MemberInvitationProcessor, MailSweeper, SmtpTransport, secretBoxProvider],
  exports: [MailSweeper, SmtpTransport],
})
export class MailModule {}
