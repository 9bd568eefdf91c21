import { createHash } from 'node:crypto';
import { ClientContext } from '@sesame/entities';
import { clockTime } from '../pages/html';
import { checkInbox, SentView, signInForm, WAIT_SCRIPT } from './login-page.pages';

const context: ClientContext = {
  application: { id: 'a', name: 'Notes <beta>', type: 'desktop', clientId: 'c', callbackUrls: [] },
  organization: { id: 'o', name: 'Acme & Co', whitelistDomains: [], autologin: false, linkTtlSeconds: 600, passkeys: 'offered' },
  tenant: { id: 't', plan: 'free' },
};

const codeForm = {
  action: '/api/v1/authorize/code',
  hidden: { state: '"><x>' },
  csrf: 'csrf-value',
  loginAttemptId: '7f0c9a4e-0000-4000-8000-000000000001',
  redirectUri: 'https://app.example.com/cb',
};

/** A "check your inbox" page's view, with `changes`. */
function sentView(changes: Partial<SentView> = {}): SentView {
  return {
    context,
    locale: 'en',
    email: 'a@b.c',
    sentence: 'S',
    approvalNumber: '42',
    minutes: 10,
    allowedDate: new Date(),
    codeForm,
    statusUrl: '/s',
    watchUrl: '/w',
    ...changes,
  };
}

describe('hosted login pages', () => {
  it('the form escapes names and values, and marks an error for assistive technology', () => {
    const page = signInForm({
      context,
      locale: 'en',
      hidden: { state: '"><x>' },
      csrf: 'token',
      email: '"a@b',
      error: 'Enter a valid e-mail address.',
    });
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
    const page = checkInbox(
      sentView({
        locale,
        email: 'ada&bob@example.com',
        sentence: 'Brave otter sings softly',
        allowedDate: new Date('2030-01-01T10:11:12Z'),
      }),
    );
    expect(page.html).toContain(sentence);
    expect(page.html).toContain('<div class="phrase" id="sentence">Brave otter sings softly</div>');
    expect(page.html).toContain('<strong id="approval-number">42</strong>');
    expect(page.html).toContain('10:11:12');
    expect(page.html).toContain(`<html lang="${locale}">`);
  });

  it('check your inbox has a code field posting the attempt, the CSRF value and the request, and may end on the redirect_uri', () => {
    const page = checkInbox(
      sentView({
        locale: 'fr',
        statusUrl: '/api/v1/authorize/status?x=1&y=2',
        watchUrl: '/api/v1/authorize/watch?x=1&y=2',
        error: 'Ce code n’est pas le bon.',
      }),
    );
    expect(page.html).toContain(
      '<form method="post" action="/api/v1/authorize/code" novalidate data-status-url="/api/v1/authorize/status?x=1&amp;y=2" data-watch-url="/api/v1/authorize/watch?x=1&amp;y=2">',
    );
    expect(page.html).toContain('<input type="hidden" name="state" value="&quot;&gt;&lt;x&gt;">');
    expect(page.html).toContain('<input type="hidden" name="login_attempt_id" value="7f0c9a4e-0000-4000-8000-000000000001">');
    expect(page.html).toContain('<input type="hidden" name="csrf" value="csrf-value">');
    expect(page.html).toContain('autocomplete="one-time-code"');
    expect(page.html).toContain('Ou saisissez le code à 6 chiffres');
    expect(page.html).toContain('<p class="error" id="code-error" role="alert">Ce code n’est pas le bon.</p>');
    expect(page.contentSecurityPolicy).toContain("form-action 'self' https://app.example.com;");
    expect(page.html).toContain('<noscript><meta http-equiv="refresh" content="3;url=/api/v1/authorize/status?x=1&amp;y=2"></noscript>');
  });

  it('check your inbox runs its wait script and nothing else: the CSP allows that script by its hash, and fetches from this origin', () => {
    const page = checkInbox(sentView());
    const scripts = [...page.html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
    expect(scripts).toEqual([WAIT_SCRIPT]);
    const hash = createHash('sha256').update(WAIT_SCRIPT).digest('base64');
    expect(page.contentSecurityPolicy).toContain(`script-src 'sha256-${hash}'; connect-src 'self';`);
    expect(page.contentSecurityPolicy).toMatch(/^default-src 'none';/);
  });

  it('clockTime is the UTC wall-clock time', () => {
    expect(clockTime(new Date('2030-01-01T23:59:58.999Z'))).toBe('23:59:58');
  });
});
