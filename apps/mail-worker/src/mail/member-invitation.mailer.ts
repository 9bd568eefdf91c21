import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { DataSource } from 'typeorm';
import { MemberInvitationTemplates } from './member-invitation.templates';
import { SmtpTransport } from './smtp-transport';

/** Sends a member's invitation. A member removed before the job runs gets none. */
@Injectable()
export class MemberInvitationMailer {
  private readonly logger = new Logger(MemberInvitationMailer.name);
  private readonly templates = new MemberInvitationTemplates();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly mailer: SmtpTransport,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  async deliver(memberId: string): Promise<'sent' | 'skipped'> {
    const rows: { email: string; role: Role; invited_by: string | null; tenant_name: string }[] = await this.dataSource.query(
      'SELECT m.email, m.role, m.invited_by, t.name AS tenant_name FROM tenant_member m JOIN tenant t ON t.id = m.tenant_id WHERE m.id = $1',
      [memberId],
    );
    const member = rows[0];
    if (!member) return 'skipped';
    const mail = this.templates.render({ email: member.email, tenant: member.tenant_name, role: member.role, invitedBy: member.invited_by, link: `${this.config.console.publicUrl}/` });
    await this.mailer.sendMail({ to: member.email, from: this.config.mail.from, ...mail });
    this.logger.log(`Sent the invitation of member ${memberId}`);
    return 'sent';
  }
}
