import { DEFAULT_STRINGS, LoginLinkMessage, LoginLinkTemplates } from './login-link.templates';

const LINK = 'https://sesame.example.com/api/v1/login_link?token=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';

const message = (overrides: Partial<LoginLinkMessage> = {}): LoginLinkMessage => ({
  organization: 'Acme Shop',
  sentence: 'Brave otter paints softly',
  link: LINK,
  code: '042917',
  minutes: 10,
  translations: null,
  ...overrides,
});

/** The href values of the HTML part, with the attribute escaping undone. */
function hrefs(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1].replace(/&#x3D;/g, '=').replace(/&amp;/g, '&'));
}

/** Text of the HTML part without tags, entities decoded (what a reader sees). */
function visibleText(html: string): string {
  return html
    .replace(/<title>[\s\S]*?<\/title>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#x60;/g, '`')
    .replace(/&#x3D;/g, '=')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('LoginLinkTemplates', () => {
  const templates = new LoginLinkTemplates();

  it('renders the English defaults with organization, sentence, expiry and the link in both parts', () => {
    const mail = templates.render(message());
    expect(mail.subject).toBe('Your sign-in link for Acme Shop');
    for (const part of [mail.text, visibleText(mail.html)]) {
      expect(part).toContain('Hello,');
      expect(part).toContain('Press the button below to sign in to Acme Shop.');
      expect(part).toContain('Brave otter paints softly');
      expect(part).toContain('Sign in');
      expect(part.replace(/\s+/g, ' ')).toContain('Or type this code where you asked to sign in: 042 917');
      expect(part).toContain('The link expires in 10 minutes and works only once.');
      expect(part).toContain('If you did not try to sign in, you can safely ignore this e-mail.');
    }
    expect(mail.text).toContain(`Sign in: ${LINK}`);
    expect(hrefs(mail.html)).toEqual([LINK]);
  });

  it('replaces each string by its translation and fills {organization} and {minutes}', () => {
    const translations = {
      subject: 'Ihr Anmeldelink für {organization}',
      greeting: 'Hallo,',
      intro: 'Melden Sie sich bei {organization} an.',
      button: 'Anmelden',
      code: 'Oder diesen Code eingeben:',
      expiry: 'Der Link läuft in {minutes} Minuten ab; {minutes} ist kurz.',
      ignore: 'Ignorieren Sie diese E-Mail, wenn Sie das nicht waren.',
    };
    const mail = templates.render(message({ translations, minutes: 15 }));
    expect(mail.subject).toBe('Ihr Anmeldelink für Acme Shop');
    for (const part of [mail.text, visibleText(mail.html)]) {
      expect(part).toContain('Hallo,');
      expect(part).toContain('Melden Sie sich bei Acme Shop an.');
      expect(part).toContain('Der Link läuft in 15 Minuten ab; 15 ist kurz.');
      expect(part).toContain('Ignorieren Sie diese E-Mail, wenn Sie das nicht waren.');
      for (const fallback of Object.values(DEFAULT_STRINGS))
        expect(part).not.toContain(fallback.replace('{organization}', 'Acme Shop').replace('{minutes}', '15'));
    }
    expect(mail.text).toContain(`Anmelden: ${LINK}`);
  });

  it('keeps the defaults for keys that are not translated', () => {
    const mail = templates.render(message({ translations: { button: 'Los' } }));
    expect(mail.subject).toBe('Your sign-in link for Acme Shop');
    expect(mail.text).toContain(`Los: ${LINK}`);
    expect(mail.text).toContain('Hello,');
  });

  it('ignores keys that are not translation keys', () => {
    const mail = templates.render(
      message({ translations: { link: 'https://evil.example/', sentence: 'Fake phrase', organization: 'Evil' } as never }),
    );
    expect(hrefs(mail.html)).toEqual([LINK]);
    expect(mail.text).toContain('Brave otter paints softly');
    expect(mail.text).not.toContain('evil.example');
    expect(mail.text).not.toContain('Fake phrase');
    expect(mail.subject).toBe('Your sign-in link for Acme Shop');
  });

  describe('translations are plain text', () => {
    const hostile = {
      subject: '<b>Subject</b>',
      greeting: '<script>alert(1)</script>',
      intro: '<a href="https://evil.example/steal">Klick</a>',
      button: 'Go"><img src=x onerror=alert(1)>',
      expiry: "It's `soon` & = soon",
      ignore: '</td></tr></table><a href=https://evil.example>x</a>',
    };

    it('are HTML-escaped in the HTML part: no element, attribute or link of theirs appears', () => {
      const mail = templates.render(message({ translations: hostile }));
      expect(mail.html).not.toMatch(/<script|<img|<b>|onerror=|href="?https:\/\/evil/i);
      expect(hrefs(mail.html)).toEqual([LINK]);
      expect(mail.html.match(/<a /g)).toHaveLength(1);
      const visible = visibleText(mail.html);
      for (const value of Object.values(hostile).slice(1)) expect(visible).toContain(value.replace(/\s+/g, ' '));
    });

    it('appear verbatim in the text part and the subject', () => {
      const mail = templates.render(message({ translations: hostile }));
      expect(mail.subject).toBe('<b>Subject</b>');
      for (const value of Object.values(hostile).slice(1)) expect(mail.text).toContain(value);
    });

    it('are values, never template source: handlebars expressions in them stay text', () => {
      const translations = {
        greeting: '{{link}}',
        intro: '{{{link}}} {{> partial}} {{#each this}}x{{/each}}',
        button: '{{lookup this "link"}}',
        expiry: '{{constructor.constructor "return process"}}',
        ignore: '{{sentence}}',
      };
      const mail = templates.render(message({ translations }));
      for (const value of Object.values(translations)) expect(mail.text).toContain(value);
      expect(mail.text.split(LINK)).toHaveLength(2); // the link appears once, where the template puts it
      expect(hrefs(mail.html)).toEqual([LINK]);
      expect(mail.text.split('Brave otter paints softly')).toHaveLength(2);
    });

    it('cannot change the link even when they contain placeholders or look like one', () => {
      const mail = templates.render(
        message({ translations: { button: '{link}', intro: 'https://evil.example/api/v1/login_link?token=x' } }),
      );
      expect(hrefs(mail.html)).toEqual([LINK]);
      expect(mail.text).toContain(`{link}: ${LINK}`);
    });
  });

  it('escapes the organization name and the sentence in the HTML part', () => {
    const mail = templates.render(message({ organization: 'A&B <Shop>', sentence: 'Odd <phrase> & more' }));
    expect(mail.html).toContain('A&amp;B &lt;Shop&gt;');
    expect(mail.html).toContain('Odd &lt;phrase&gt; &amp; more');
    expect(mail.html).not.toContain('<Shop>');
    expect(mail.subject).toBe('Your sign-in link for A&B <Shop>');
  });

  it('puts an organization name into the strings literally, even with $ replacement patterns', () => {
    for (const organization of ['Dollar $& Co', "Cash $' Carry", 'Price $$ Shop', 'Back $` tick', 'Group $1 Ltd']) {
      const mail = templates.render(message({ organization }));
      expect(mail.subject).toBe(`Your sign-in link for ${organization}`);
      expect(mail.text).toContain(`sign in to ${organization}.`);
    }
  });

  it('a {minutes} inside the organization name is not a placeholder of the translation', () => {
    const mail = templates.render(message({ organization: 'Shop {minutes}', translations: { subject: '{organization} in {minutes}' } }));
    expect(mail.subject).toBe('Shop {minutes} in 10');
  });
});
