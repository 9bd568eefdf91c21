import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Clock, SecretBox, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { Translations } from '@sesame/entities';
import { UsageCounter } from '@sesame/usage';
import { DataSource } from 'typeorm';
import { SmtpTransport } from './smtp-transport';
import { LoginLinkTemplates } from './login-link.templates';

interface PendingMail {
  id: string;
  email: string;
  sentence: string;
  translations: Translations | null;
  token_hash: Buffer;
  link_token_encrypted: string;
  expires_at: Date;
  created_at: Date;
  organization_name: string;
  tenant_id: string;
}

export type DeliveryOutcome = 'sent' | 'skipped';

/**
 * Sends the e-mail of one login attempt. Bull delivers jobs at least once, so the attempt row
 * decides: only a pending, unexpired, unsuppressed attempt whose mail was not sent yet gets one.
 */
@Injectable()
export class LoginLinkMailer {
  private readonly logger = new Logger(LoginLinkMailer.name);
  private readonly templates = new LoginLinkTemplates();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly mailer: SmtpTransport,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
    private readonly usage: UsageCounter,
  ) {}

  async deliver(loginAttemptId: string): Promise<DeliveryOutcome> {
    const attempt = await this.findDeliverable(loginAttemptId);
    if (!attempt) return 'skipped';
    const token = this.box.decrypt(attempt.link_token_encrypted, attempt.token_hash.toString('base64url'));
    const mail = this.templates.render({
      organization: attempt.organization_name,
      sentence: attempt.sentence,
      link: `${this.config.http.publicBaseUrl}/v1/login_link?token=${token}`,
      minutes: Math.round((attempt.expires_at.getTime() - attempt.created_at.getTime()) / 60_000),
      translations: attempt.translations,
    });
    await this.mailer.sendMail({ to: attempt.email, from: this.config.mail.from, subject: mail.subject, html: mail.html, text: mail.text });
    await this.dataSource.query('UPDATE login_attempt SET mail_sent_at = $2 WHERE id = $1 AND mail_sent_at IS NULL', [attempt.id, this.clock.now()]);
    this.logger.log(`Sent login link e-mail for attempt ${attempt.id}`);
    await this.usage.record(attempt.tenant_id, 'mailsSent');
    return 'sent';
  }

  /** The worker gave up on an attempt's e-mail: recorded on the attempt (login activity shows it) and counted. */
  async recordFailure(loginAttemptId: string): Promise<void> {
    const rows: { organization_id: string }[] = await this.dataSource.query(
      `WITH failed AS (UPDATE login_attempt SET mail_failed_at = $2 WHERE id = $1 AND mail_sent_at IS NULL AND mail_failed_at IS NULL RETURNING organization_id)
       SELECT organization_id FROM failed`,
      [loginAttemptId, this.clock.now()],
    );
    if (rows[0]) await this.usage.recordForOrganization(rows[0].organization_id, 'mailsFailed');
  }

  private async findDeliverable(loginAttemptId: string): Promise<PendingMail | null> {
    const rows: PendingMail[] = await this.dataSource.query(
      `SELECT a.id, a.email, a.sentence, a.translations, a.token_hash, a.link_token_encrypted, a.expires_at, a.created_at, o.name AS organization_name, o.tenant_id
         FROM login_attempt a JOIN organization o ON o.id = a.organization_id
        WHERE a.id = $1 AND a.status = 'pending' AND a.expires_at > $2 AND a.mail_sent_at IS NULL
          AND NOT a.mail_suppressed AND a.link_token_encrypted IS NOT NULL`,
      [loginAttemptId, this.clock.now()],
    );
    return rows[0] ?? null;
  }
}
