import { html } from './html';
import { formActionSource, renderPage } from './layout';

describe('formActionSource', () => {
  it.each([
    ['https://app.example.com', 'https://app.example.com'],
    ['https://app.example.com/callback?x=1', 'https://app.example.com'],
    ['http://127.0.0.1:53123/callback', 'http://127.0.0.1:53123'],
    ['com.example.app:/oauth/callback', 'com.example.app:'],
    ['com.example.notes.ios:/cb?x=1', 'com.example.notes.ios:'],
    ['null', null],
    ['not a url', null],
    ['javascript:alert(1)', null],
    ['data:text/html,x', null],
    ['file:///etc/passwd', null],
  ])('%s → %s', (target, source) => {
    expect(formActionSource(target)).toBe(source);
  });
});

describe('renderPage', () => {
  it('allows forms to post to the service and to the given targets only', () => {
    const page = renderPage({ title: 'T', body: html`<p>x</p>` }, [
      'https://app.example.com',
      'com.example.app:/cb',
      'null',
      'https://app.example.com',
    ]);
    expect(page.contentSecurityPolicy).toContain("form-action 'self' https://app.example.com com.example.app:;");
    expect(page.contentSecurityPolicy).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'self' data:;/);
  });

  it('escapes the brand and title, and shows the first letter of the brand as its logo', () => {
    const page = renderPage({ title: '<T>', brand: 'acme & co', body: html`<p>x</p>` });
    expect(page.html).toContain('<title>&lt;T&gt; · acme &amp; co</title>');
    expect(page.html).toContain('<span class="logo" aria-hidden="true">A</span>');
  });

  it('defaults to Sesame and English, and draws an icon only when asked', () => {
    const plain = renderPage({ title: 'T', body: html`<p>x</p>` });
    expect(plain.html).toContain('<html lang="en">');
    expect(plain.html).toContain('<span>Sesame</span>');
    expect(plain.html).not.toContain('class="icon');
    expect(renderPage({ title: 'T', icon: 'mail', body: html`` }, [], 'de').html).toMatch(/<html lang="de">[\s\S]*<div class="icon"><svg/);
  });
});
