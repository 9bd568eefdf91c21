import { Role } from '@sesame/common';
import { compileTemplate } from './mail-template';

export interface MemberInvitationMessage {
  email: string;
  tenant: string;
  role: Role;
  /** A member's address or an API key's name; null when they became owner as the tenant was created. */
  invitedBy: string | null;
  /** The console's address. */
  link: string;
}

const AS_ROLE: Record<Role, string> = { owner: 'an owner', admin: 'an admin', viewer: 'a viewer' };

/** The invitation e-mail of a new tenant member: who invited them, to which tenant, with which role, and the console's address. */
export class MemberInvitationTemplates {
  private readonly html = compileTemplate('member-invitation.html.hbs');
  private readonly text = compileTemplate('member-invitation.text.hbs');

  render(message: MemberInvitationMessage): { subject: string; html: string; text: string } {
    const role = AS_ROLE[message.role];
    const intro = message.invitedBy
      ? `${message.invitedBy} invited you to manage ${message.tenant} on Sesame, as ${role}.`
      : `You are ${role} of ${message.tenant}, a new tenant on Sesame.`;
    const subject = `You are invited to manage ${message.tenant} on Sesame`;
    const context = { subject, intro, email: message.email, link: message.link };
    return { subject, html: this.html(context), text: this.text(context) };
  }
}
