import { LOCALES } from '../login-page/locales';
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
};
const view: ApprovalView = {
  state: 'pending',
  organizationName: 'Acme & Co',
  applicationName: 'Acme <Shop>',
  email: 'ada@example.com',
  requestedFrom: 'Firefox on Linux',
  requestedAt: new Date('2033-01-01T08:30:00Z'),
  choices: ['One phrase here', 'Tidy zebra steers foolishly', 'Another phrase there'],
  formTargets: [],
};

describe('the login-link pages', () => {
  it.each(LOCALES)('in %s: every placeholder filled, names escaped, the language declared', (locale) => {
    const pages = [
      loginLinkPage('tok', link, locale),
      loginLinkPage('tok', { ...link, state: 'locked' }, locale),
      approvalPage('tok', view, locale),
      approvalPage('tok', { ...view, requestedFrom: null }, locale),
      approvalPage('tok', { ...view, state: 'expired' }, locale),
      approvalOutcomePage('approved', 'Acme & Co', locale),
      approvalOutcomePage('wrong_sentence', 'Acme & Co', locale),
    ];
    for (const page of pages) {
      expect(page.html).toContain(`<html lang="${locale}">`);
      expect(page.html).not.toMatch(/\{(organization|application|email|device|time)\}/);
      expect(page.html).not.toContain('Acme <Shop>');
    }
    expect(pages[0].html).toContain('Acme &lt;Shop&gt;');
    expect(pages[0].html).toContain('<strong>ada@example.com</strong>');
    expect(pages[2].html).toContain('<strong id="requested-from">Firefox on Linux</strong>');
  });

  it('speaks the language asked for', () => {
    expect(loginLinkPage('tok', link, 'de').html).toContain('Hier fortfahren');
    expect(loginLinkPage('tok', link, 'fr').html).toContain('Continuer ici');
    expect(approvalPage('tok', view, 'es').html).toContain('Iniciar sesión en ese dispositivo');
    expect(approvalOutcomePage('approved', null, 'fr').html).toContain('L’autre appareil est maintenant connecté');
  });
});
