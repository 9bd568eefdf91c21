import { LOCALES } from '../pages/locales';
import { ApprovalView } from './login-approval.service';
import { approvalOutcomePage, approvalPage, loginLinkPage } from './login-link.pages';
import { LinkDescription } from './login-link.service';

const link: LinkDescription = {
  state: 'pending',
  organizationName: 'Acme & Co',
  applicationName: 'Acme <Shop>',
  sentence: 'Tidy zebra steers foolishly',
  email: 'ada@example.com',
  formTargets: ['https://shop.example.com'],
  startedHere: null,
  approvalOpen: true,
};
const view: ApprovalView = {
  state: 'pending',
  organizationName: 'Acme & Co',
  applicationName: 'Acme <Shop>',
  email: 'ada@example.com',
  requestedFrom: 'Firefox on Linux',
  requestedIp: '203.0.113.7',
  requestedAt: new Date('2033-01-01T08:30:00Z'),
  approvalOpen: true,
};

describe('the login-link pages', () => {
  it.each(LOCALES)('in %s: every placeholder filled, names escaped, the language declared', (locale) => {
    const pages = [
      loginLinkPage('tok', link, locale),
      loginLinkPage('tok', { ...link, state: 'locked' }, locale),
      approvalPage('tok', view, locale),
      approvalPage('tok', { ...view, requestedFrom: null, requestedIp: null }, locale),
      approvalPage('tok', { ...view, state: 'expired' }, locale),
      approvalPage('tok', { ...view, approvalOpen: false }, locale),
      approvalOutcomePage('approved', 'Acme & Co', locale),
      approvalOutcomePage('wrong_number', 'Acme & Co', locale),
      approvalOutcomePage('approval_ended', 'Acme & Co', locale),
    ];
    for (const page of pages) {
      expect(page.html).toContain(`<html lang="${locale}">`);
      expect(page.html).not.toMatch(/\{(organization|application|email|device|time)\}/);
      expect(page.html).not.toContain('Acme <Shop>');
    }
    expect(pages[0].html).toContain('Acme &lt;Shop&gt;');
    expect(pages[0].html).toContain('<strong>ada@example.com</strong>');
    expect(pages[2].html).toContain('<dd id="requested-from">Firefox on Linux</dd>');
    expect(pages[2].html).toContain('<dd id="requested-ip">203.0.113.7</dd>');
    expect(pages[2].html).toContain('<dd id="requested-at">08:30:00</dd>');
    expect(pages[2].html).toContain('name="number"');
    // Approval ended (a wrong number was typed): no form, and the link page offers only "Continue here".
    expect(pages[5].html).not.toContain('name="number"');
    expect(loginLinkPage('tok', { ...link, approvalOpen: false }, locale).html).not.toContain('id="approve"');
    expect(pages[0].html).toContain('id="approve"');
  });

  it('in the browser that asked, a script may send "Continue here" to the hosted page (a passkey offer); elsewhere no script', () => {
    const asked = loginLinkPage('tok', { ...link, startedHere: true }, 'en');
    expect(asked.html).toContain('<form method="post" action="login_link" id="continue-here">');
    expect(asked.html).toContain("document.getElementById('continue-here').action = 'authorize/link'");
    expect(asked.contentSecurityPolicy).toMatch(/script-src 'sha256-[^']+'/);
    for (const startedHere of [false, null]) {
      const page = loginLinkPage('tok', { ...link, startedHere }, 'en');
      expect(page.html).not.toContain('<script>');
      expect(page.contentSecurityPolicy).not.toContain('script-src');
    }
    expect(loginLinkPage('tok', { ...link, startedHere: true, state: 'used' }, 'en').html).not.toContain('<script>');
  });

  it('speaks the language asked for', () => {
    expect(loginLinkPage('tok', link, 'de').html).toContain('Hier fortfahren');
    expect(loginLinkPage('tok', link, 'fr').html).toContain('Continuer ici');
    expect(approvalPage('tok', view, 'es').html).toContain('Aprobar');
    expect(approvalOutcomePage('approved', null, 'fr').html).toContain('Approuvé — retournez sur l’autre appareil');
    expect(approvalOutcomePage('approved', null, 'en').html).toContain('Approved — go back to the other device');
  });
});
