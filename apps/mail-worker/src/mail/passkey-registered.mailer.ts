import { Inject, Injectable, Logger } from '@nestjs/common';
import { SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { PasskeyRepository } from '@sesame/entities';
import { PasskeyRegisteredTemplates } from './passkey-registered.templates';
import { SmtpTransport } from './smtp-transport';

/** Tells a user that a passkey was added to their sign-in. A passkey removed before the job runs gets no mail. */
@Injectable()
export class PasskeyRegisteredMailer {
  private readonly logger = new Logger(PasskeyRegisteredMailer.name);
  private readonly templates = new PasskeyRegisteredTemplates();

  constructor(
    private readonly passkeys: PasskeyRepository,
    private readonly mailer: SmtpTransport,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  async deliver(passkeyId: string): Promise<'sent' | 'skipped'> {
    const notice = await this.passkeys.findRegisteredNotice(passkeyId);
    if (!notice) return 'skipped';
    const mail = this.templates.render(notice);
    await this.mailer.sendMail({ to: notice.email, from: this.config.mail.from, ...mail });
    this.logger.log(`Told the user of passkey ${passkeyId} that it was added`);
    return 'sent';
  }
}
