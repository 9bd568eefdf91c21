import { ClientContext } from '../clients/client-context.repository';
import { checkInbox, clockTime, signInForm } from './login-page.pages';

const context: ClientContext = {
  application: { id: 'a', name: 'Notes <beta>', type: 'desktop', clientId: 'c', callbackUrls: [] },
  organization: { id: 'o', name: 'Acme & Co', whitelistDomains: [], autologin: false, linkTtlSeconds: 600 },
  tenant: { id: 't', plan: 'free' },
};

describe('hosted login pages', () => {
  it('the form escapes names and values, and marks an error for assistive technology', () => {
    const page = signInForm({ context, locale: 'en', hidden: { state: '"><x>' }, csrf: 'token', email: '"a@b', error: 'Enter a valid e-mail address.' });
    expect(page.html).toContain('Sign in to Acme &amp; Co');
    expect(page.html).toContain('sign in to Notes &lt;beta&gt;');
    expect(page.html).toContain('<input type="hidden" name="state" value="&quot;&gt;&lt;x&gt;">');
    expect(page.html).toContain('value="&quot;a@b"');
    expect(page.html).toContain('aria-invalid="true" aria-describedby="email-error"');
    expect(page.html).toContain('<p class="error" id="email-error" role="alert">Enter a valid e-mail address.</p>');
    expect(page.contentSecurityPolicy).toContain("form-action 'self';");
  });

  it.each([
    ['en', 'We sent a sign-in link to <strong>ada&amp;bob@example.com</strong>. Open it'],
    ['de', 'Wir haben einen Anmeldelink an <strong>ada&amp;bob@example.com</strong> gesendet.'],
    ['fr', 'lien de connexion à <strong>ada&amp;bob@example.com</strong>. Ouvrez-le'],
    ['es', 'Hemos enviado un enlace a <strong>ada&amp;bob@example.com</strong>. Ábrelo'],
  ] as const)('check your inbox (%s) names the address, escaped, and shows the sentence', (locale, sentence) => {
    const page = checkInbox({ context, locale, email: 'ada&bob@example.com', sentence: 'Brave otter sings softly', minutes: 10, allowedDate: new Date('2030-01-01T10:11:12Z') });
    expect(page.html).toContain(sentence);
    expect(page.html).toContain('<div class="phrase" id="sentence">Brave otter sings softly</div>');
    expect(page.html).toContain('10:11:12');
    expect(page.html).toContain(`<html lang="${locale}">`);
  });

  it('clockTime is the UTC wall-clock time', () => {
    expect(clockTime(new Date('2030-01-01T23:59:58.999Z'))).toBe('23:59:58');
  });
});
