import { EndpointDisabledTemplates } from './endpoint-disabled.templates';

describe('EndpointDisabledTemplates', () => {
  const templates = new EndpointDisabledTemplates();
  const message = {
    tenant: 'Acme',
    url: 'https://hooks.acme.example/sesame',
    failingSince: new Date('2031-03-01T10:15:00Z'),
    link: 'https://id.example.com/console/',
  };

  it('names the endpoint, since when it failed, and how to turn it on again, in both parts', () => {
    const mail = templates.render(message);
    expect(mail.subject).toBe('A webhook endpoint of Acme was disabled');
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('Every delivery to https://hooks.acme.example/sesame has failed since 2031-03-01 10:15 UTC');
      expect(part).toContain('enable it in the console');
      expect(part).toContain('https://id.example.com/console/');
    }
  });

  it('escapes the URL and the tenant in the HTML part', () => {
    const mail = templates.render({ ...message, tenant: '<b>Evil</b>', url: 'https://x.example/?a=<script>' });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>Evil</b>');
  });
});
