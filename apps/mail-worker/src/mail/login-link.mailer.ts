import { Inject, Injectable, Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { Clock, isLostDatabaseConnection, loginLinkUrl, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { LoginAttemptRepository } from '@sesame/entities';
import { UsageCounter } from '@sesame/usage';
import { SmtpTransport } from './smtp-transport';
import { LoginLinkTemplates } from './login-link.templates';

export type DeliveryOutcome = 'sent' | 'skipped';

/**
 * Recording a send is tried this often, this far apart, across lost database connections (a
 * failover, terminated backends): the SMTP server already has the e-mail, and a failed job would
 * be tried again and send it a second time.
 */
const RECORD_TRIES = 5;
const RECORD_RETRY_MS = 200;

/**
 * Sends the e-mail of one login attempt. Bull delivers jobs at least once, so the attempt row
 * decides: only a pending, unexpired, unsuppressed attempt whose mail was not sent yet gets one.
 */
@Injectable()
export class LoginLinkMailer {
  private readonly logger = new Logger(LoginLinkMailer.name);
  private readonly templates = new LoginLinkTemplates();

  constructor(
    private readonly attempts: LoginAttemptRepository,
    private readonly mailer: SmtpTransport,
    private readonly clock: Clock,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
    private readonly usage: UsageCounter,
  ) {}

  async deliver(loginAttemptId: string): Promise<DeliveryOutcome> {
    const attempt = await this.attempts.findDeliverable(loginAttemptId, this.clock.now());
    if (!attempt) return 'skipped';
    const mail = this.templates.render({
      organization: attempt.organizationName,
      sentence: attempt.sentence,
      link: loginLinkUrl(this.config.http.publicBaseUrl, attempt.token),
      code: attempt.code,
      minutes: Math.round((attempt.expiresAt.getTime() - attempt.createdAt.getTime()) / 60_000),
      translations: attempt.translations,
    });
    await this.mailer.sendMail({
      to: attempt.email,
      from: this.config.mail.from,
      messageId: this.messageId(attempt.messageId),
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
    });
    await this.recordSent(attempt.id);
    this.logger.log(`Sent login link e-mail for attempt ${attempt.id}`);
    await this.usage.record(attempt.tenantId, 'mailsSent');
    return 'sent';
  }

  /**
   * The attempt's own Message-ID, the same on every try: when a worker dies between the SMTP
   * server's acceptance and recording the send, the next try sends the same message again, which
   * mailboxes that deduplicate by Message-ID keep once (no sender can rule that window out). It is
   * a random id kept on the attempt, not the attempt's id: whoever reads the e-mail's headers must
   * not learn the id the requesting side follows the attempt by.
   */
  private messageId(randomId: string): string {
    const domain = /@([^@>\s]+)>?\s*$/.exec(this.config.mail.from)?.[1] ?? 'sesame.localhost';
    return `<${randomId}@${domain}>`;
  }

  private async recordSent(id: string): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        return await this.attempts.markSent(id, this.clock.now());
      } catch (error) {
        if (tries >= RECORD_TRIES || !isLostDatabaseConnection(error)) throw error;
        await sleep(RECORD_RETRY_MS);
      }
    }
  }

  /** The worker gave up on an attempt's e-mail: recorded on the attempt (login activity shows it) and counted. */
  async recordFailure(loginAttemptId: string): Promise<void> {
    const organizationId = await this.attempts.markMailFailed(loginAttemptId, this.clock.now());
    if (organizationId) await this.usage.recordForOrganization(organizationId, 'mailsFailed');
  }
}
