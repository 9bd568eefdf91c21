import { PasskeyRegisteredTemplates } from './passkey-registered.templates';

describe('PasskeyRegisteredTemplates', () => {
  const templates = new PasskeyRegisteredTemplates();
  const message = { organization: 'Acme', name: 'Chrome on macOS', createdAt: new Date('2031-03-01T10:15:00Z'), ip: '192.0.2.7' };

  it('names the passkey, when and where it was added, and whom to contact, in both parts', () => {
    const mail = templates.render(message);
    expect(mail.subject).toBe('A passkey was added to your Acme sign-in');
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('A passkey was added to your Acme sign-in: Chrome on macOS, on 2031-03-01 10:15 UTC, from 192.0.2.7.');
      expect(part).toContain('contact the administrators of Acme at once: they can remove the passkey');
    }
  });

  it('says so when the address is not known', () => {
    expect(templates.render({ ...message, ip: null }).text).toContain('from an unknown address');
  });

  it('escapes the organization and the name in the HTML part', () => {
    const mail = templates.render({ ...message, organization: '<b>Evil</b>', name: '<script>x</script>' });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>Evil</b>');
  });
});
