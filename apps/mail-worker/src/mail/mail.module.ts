import { MailerModule, MailerOptions } from '@nestjs-modules/mailer';
import { Module } from '@nestjs/common';
import { secretBoxProvider, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { MailQueueModule } from '@sesame/queue';
import { LoginLinkMailer } from './login-link.mailer';
import { LoginLinkProcessor } from './login-link.processor';
import { MailSweeper } from './mail-sweeper';

/**
 * Reuses SMTP connections across e-mails (nodemailer's pool, up to five connections): the
 * connection set-up and greeting are paid once, not per e-mail. Options in SMTP_URL win.
 */
function pooled(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  return url.href;
}

@Module({
  imports: [
    MailQueueModule,
    MailerModule.forRootAsync({
      imports: [],
      inject: [SESAME_CONFIG],
      useFactory: (config: SesameConfig): MailerOptions => ({ transport: pooled(config.mail.smtpUrl) }),
    }),
  ],
  providers: [LoginLinkMailer, LoginLinkProcessor, MailSweeper, secretBoxProvider],
  exports: [MailSweeper],
})
export class MailModule {}
