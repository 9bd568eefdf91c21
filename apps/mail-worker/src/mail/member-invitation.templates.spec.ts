import { MemberInvitationTemplates } from './member-invitation.templates';

describe('MemberInvitationTemplates', () => {
  const templates = new MemberInvitationTemplates();
  const message = {
    email: 'ada@example.com',
    tenant: 'Acme',
    role: 'admin' as const,
    invitedBy: 'grace@example.com',
    link: 'https://id.example.com/console/',
  };

  it('says who invited whom to which tenant with which role, and links to the console in both parts', () => {
    const mail = templates.render(message);
    expect(mail.subject).toBe('You are invited to manage Acme on Sesame');
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('grace@example.com invited you to manage Acme on Sesame, as an admin.');
      expect(part).toContain('ada@example.com');
      expect(part).toContain('https://id.example.com/console/');
    }
  });

  it("tells a new tenant's first owner they own it", () => {
    expect(templates.render({ ...message, role: 'owner', invitedBy: null }).text).toContain(
      'You are an owner of Acme, a new tenant on Sesame.',
    );
  });

  it('escapes names in the HTML part', () => {
    const mail = templates.render({ ...message, tenant: '<b>Evil</b> & Co', invitedBy: 'CI "deploys"' });
    expect(mail.html).toContain('&lt;b&gt;Evil&lt;/b&gt; &amp; Co');
    expect(mail.html).not.toContain('<b>Evil</b>');
    expect(mail.text).toContain('<b>Evil</b> & Co');
  });
});
