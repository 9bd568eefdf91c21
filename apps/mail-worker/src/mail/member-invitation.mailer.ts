import { Inject, Injectable, Logger } from '@nestjs/common';
import { SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { TenantMemberRepository } from '@sesame/entities';
import { MemberInvitationTemplates } from './member-invitation.templates';
import { SmtpTransport } from './smtp-transport';

/** Sends a member's invitation. A member removed before the job runs gets none. */
@Injectable()
export class MemberInvitationMailer {
  private readonly logger = new Logger(MemberInvitationMailer.name);
  private readonly templates = new MemberInvitationTemplates();

  constructor(
    private readonly members: TenantMemberRepository,
    private readonly mailer: SmtpTransport,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  async deliver(memberId: string): Promise<'sent' | 'skipped'> {
    const member = await this.members.findInvitation(memberId);
    if (!member) return 'skipped';
    const mail = this.templates.render({
      email: member.email,
      tenant: member.tenantName,
      role: member.role,
      invitedBy: member.invitedBy,
      link: `${this.config.console.publicUrl}/`,
    });
    await this.mailer.sendMail({ to: member.email, from: this.config.mail.from, ...mail });
    this.logger.log(`Sent the invitation of member ${memberId}`);
    return 'sent';
  }
}
