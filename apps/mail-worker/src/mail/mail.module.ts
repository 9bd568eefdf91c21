import { MailerModule, MailerOptions } from '@nestjs-modules/mailer';
import { Module } from '@nestjs/common';
import { secretBoxProvider, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { MailQueueModule } from '@sesame/queue';
import { LoginLinkMailer } from './login-link.mailer';
import { LoginLinkProcessor } from './login-link.processor';
import { MailSweeper } from './mail-sweeper';

@Module({
  imports: [
    MailQueueModule,
    MailerModule.forRootAsync({
      imports: [],
      inject: [SESAME_CONFIG],
      useFactory: (config: SesameConfig): MailerOptions => ({ transport: config.mail.smtpUrl }),
    }),
  ],
  providers: [LoginLinkMailer, LoginLinkProcessor, MailSweeper, secretBoxProvider],
  exports: [MailSweeper],
})
export class MailModule {}
