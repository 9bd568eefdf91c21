import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { createTransport, SendMailOptions, Transporter } from 'nodemailer';

/**
 * The worker's SMTP connection, with nodemailer directly: it renders its own e-mails (handlebars),
 * so nothing more than a transport is needed. Connections are reused across e-mails (nodemailer's
 * pool, up to five connections), so set-up and greeting are paid once; options in SMTP_URL win.
 */
@Injectable()
export class SmtpTransport implements OnApplicationShutdown {
  private readonly logger = new Logger(SmtpTransport.name);
  private readonly transporter: Transporter;

  constructor(@Inject(SESAME_CONFIG) config: SesameConfig) {
    this.transporter = createTransport(pooled(config.mail.smtpUrl));
  }

  async sendMail(mail: SendMailOptions): Promise<void> {
    await this.transporter.sendMail(mail);
  }

  /** Whether the SMTP server accepts a connection and a greeting now (the health check). */
  verify(): Promise<true> {
    return this.transporter.verify();
  }

  /**
   * Last of the stop: the processor closed the queue before shutdown (no new job) and waited for
   * the sends in progress. Closing the pool any earlier fails the jobs taken in between.
   */
  onApplicationShutdown(): void {
    this.transporter.close();
    this.logger.log('SMTP connections closed');
  }
}

function pooled(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  return url.href;
}
