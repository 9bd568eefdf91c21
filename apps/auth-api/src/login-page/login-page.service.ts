import { Inject, Injectable } from '@nestjs/common';
import { normalizeEmail, ProblemException, readCookie, SESAME_CONFIG, SesameConfig, withQuery } from '@sesame/common';
import { isUUID } from 'class-validator';
import { ClientContext, ClientContextRepository } from '../clients/client-context.repository';
import { LoginAttemptService } from '../direct-auth/login-attempt.service';
import { LoginCodeService } from '../direct-auth/login-code.service';
import { RenderedPage } from '../pages/layout';
import { PageRedirect, PageWithStatus } from '../pages/page-outcomes';
import { AuthorizeRequest, checkAuthorizeRequest, hiddenParameters } from './authorize-request';
import { CSRF_COOKIE, CsrfTokens } from './csrf';
import { chooseLocale, fill, Locale, MAIL_STRINGS, PAGE_STRINGS } from './locales';
import { checkInbox, clockTime, signInForm } from './login-page.pages';

export interface BrowserContext {
  cookieHeader: string | undefined;
  acceptLanguage: string | undefined;
  requestId: string | null;
}

/** The hosted login page (/v1/authorize) for every application type and plan. */
@Injectable()
export class LoginPageService {
  private readonly csrf: CsrfTokens;
  private readonly cookieAttributes: string;
  private readonly codeAction: string;

  constructor(
    private readonly contexts: ClientContextRepository,
    private readonly attempts: LoginAttemptService,
    private readonly codes: LoginCodeService,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.csrf = new CsrfTokens(config.secrets.key);
    const secure = config.http.publicBaseUrl.startsWith('https:') ? '; Secure' : '';
    this.codeAction = `/${config.http.apiPrefix}/v1/authorize/code`;
    this.cookieAttributes = `Path=/${config.http.apiPrefix}/v1/authorize; HttpOnly; SameSite=Strict; Max-Age=3600${secure}`;
  }

  /** GET: checks everything before showing anything, then shows the form with a fresh CSRF pair. */
  async show(params: Record<string, unknown>, browser: BrowserContext): Promise<RenderedPage> {
    const { context, request } = await this.check(params);
    const { cookieValue, formValue } = this.csrf.issue();
    const page = signInForm({ context, locale: this.locale(request, browser), hidden: hiddenParameters(request), csrf: formValue, email: request.loginHint });
    return { ...page, headers: { 'Set-Cookie': `${CSRF_COOKIE}=${cookieValue}; ${this.cookieAttributes}` } };
  }

  /**
   * POST: sends a login link through the same queue and allowedDate rules as direct
   * authentication (login-link type, local method) and shows where it went.
   */
  async submit(form: Record<string, unknown>, browser: BrowserContext): Promise<RenderedPage> {
    const { context, request } = await this.check(form);
    const locale = this.locale(request, browser);
    const cookie = this.requireCsrf(form, browser);
    const typed = typeof form.email === 'string' ? form.email : '';
    const email = normalizeEmail(typed);
    const again = (status: number, error: string) =>
      new PageWithStatus(status, signInForm({ context, locale, hidden: hiddenParameters(request), csrf: this.csrf.formValueFor(cookie!), email: typed, error }));
    if (!email) throw again(400, PAGE_STRINGS[locale].invalidEmail);

    try {
      const started = await this.attempts.start({
        applicationId: context.application.id,
        organizationId: context.organization.id,
        email,
        redirectUri: request.redirectUri,
        state: request.state,
        codeChallenge: request.codeChallenge,
        nonce: request.nonce,
        flow: 'hosted',
        translations: locale === 'en' ? null : MAIL_STRINGS[locale],
        linkTtlSeconds: context.organization.linkTtlSeconds,
        requestId: browser.requestId,
      });
      return checkInbox({
        context,
        locale,
        email,
        sentence: started.sentence,
        minutes: Math.round(context.organization.linkTtlSeconds / 60),
        allowedDate: started.allowedDate,
        codeForm: { action: this.codeAction, hidden: hiddenParameters(request), csrf: this.csrf.formValueFor(cookie), loginAttemptId: started.loginAttemptId, redirectUri: request.redirectUri },
      });
    } catch (error) {
      if (error instanceof ProblemException && error.code === 'too_early') {
        const allowedDate = new Date(String(error.body?.allowedDate));
        throw again(429, fill(PAGE_STRINGS[locale].tooEarly, { time: clockTime(allowedDate) }));
      }
      throw error;
    }
  }

  /**
   * POST /v1/authorize/code: the code of the e-mail, typed on the "check your inbox" page. A right
   * code goes on like the link (to the callback with code and state, or an autologin walk); a
   * wrong or malformed one shows the page again with the error; a stopped attempt (locked, used,
   * expired) or a blocked user goes back to the application with the error, as the link would.
   */
  async submitCode(form: Record<string, unknown>, browser: BrowserContext): Promise<{ url: string; cookie?: string }> {
    const { context, request } = await this.check(form);
    const locale = this.locale(request, browser);
    const cookie = this.requireCsrf(form, browser);
    const loginAttemptId = typeof form.login_attempt_id === 'string' && isUUID(form.login_attempt_id) ? form.login_attempt_id : null;
    if (!loginAttemptId) throw new ProblemException(400, 'invalid_request', 'This form is incomplete. Go back to the application and start signing in again.');
    try {
      const success = await this.codes.use(loginAttemptId, form.code, { applicationId: context.application.id, flow: 'hosted' }, { walk: true });
      return { url: success.url, cookie: success.kind === 'walk' ? success.cookie : undefined };
    } catch (error) {
      if (!(error instanceof ProblemException)) throw error;
      if (error.code === 'invalid_login_code' || error.code === 'invalid_request') {
        const view = await this.attempts.inboxView(context.application.id, loginAttemptId);
        const message = error.code === 'invalid_login_code' ? PAGE_STRINGS[locale].wrongCode : PAGE_STRINGS[locale].badCode;
        const codeForm = { action: this.codeAction, hidden: hiddenParameters(request), csrf: this.csrf.formValueFor(cookie), loginAttemptId, redirectUri: request.redirectUri };
        throw new PageWithStatus(400, checkInbox({ context, locale, ...view, minutes: Math.round(context.organization.linkTtlSeconds / 60), codeForm, error: message }));
      }
      if (error.code === 'not_found') throw error;
      throw new PageRedirect(withQuery(request.redirectUri, { error: error.code, error_description: error.detail, state: request.state }));
    }
  }

  /** The form's CSRF pair must match; returns the cookie's value. */
  private requireCsrf(form: Record<string, unknown>, browser: BrowserContext): string {
    const cookie = readCookie(browser.cookieHeader, CSRF_COOKIE);
    if (!this.csrf.verify(cookie, typeof form.csrf === 'string' ? form.csrf : undefined)) {
      throw new ProblemException(403, 'csrf_failed', 'This form has expired. Go back to the application and start signing in again.');
    }
    return cookie!;
  }

  private async check(params: Record<string, unknown>): Promise<{ context: ClientContext; request: AuthorizeRequest }> {
    const clientId = typeof params.client_id === 'string' ? params.client_id : '';
    const context = clientId ? await this.contexts.findByClientId(clientId) : null;
    if (!context) throw new ProblemException(400, 'invalid_client', 'Unknown client_id');
    return { context, request: checkAuthorizeRequest(params, context) };
  }

  private locale(request: AuthorizeRequest, browser: BrowserContext): Locale {
    return chooseLocale(request.uiLocales, browser.acceptLanguage);
  }
}
