import { Module } from '@nestjs/common';
import { secretBoxProvider } from '@sesame/common';
import { MailQueueModule } from '@sesame/queue';
import { LoginLinkMailer } from './login-link.mailer';
import { LoginLinkProcessor } from './login-link.processor';
import { MailSweeper } from './mail-sweeper';
import { SmtpTransport } from './smtp-transport';

@Module({
  imports: [MailQueueModule],
  providers: [LoginLinkMailer, LoginLinkProcessor, MailSweeper, SmtpTransport, secretBoxProvider],
  exports: [MailSweeper, SmtpTransport],
})
export class MailModule {}
