import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  ApprovalNumbers,
  normalizeEmail,
  problem,
  ProblemException,
  randomSecret,
  readCookie,
  SESAME_CONFIG,
  SesameConfig,
  sha256,
  withQuery,
} from '@sesame/common';
import { isUUID } from 'class-validator';
import { ClientContext, LoginAttemptStatus } from '@sesame/entities';
import { LoginAttemptService } from '../direct-auth/login-attempt.service';
import { ATTEMPT_COOKIE } from '../direct-auth/login-approval.service';
import { CodeSuccess, LoginCodeService } from '../direct-auth/login-code.service';
import { LinkRedirect, LoginLinkService } from '../direct-auth/login-link.service';
import { ClientContexts } from '../clients/client-contexts';
import { RenderedPage } from '../pages/layout';
import { PageRedirect, PageWithStatus } from '../pages/page-outcomes';
import { AuthorizeRequest, hiddenParameters } from './authorize-request';
import { HostedRequests } from './hosted-requests';
import { CSRF_COOKIE, CsrfTokens } from './csrf';
import { chooseLocale, fill, Locale, MAIL_STRINGS, PAGE_STRINGS } from '../pages/locales';

import { clockTime } from '../pages/html';
import { checkInbox, passkeyOffer, signInForm } from './login-page.pages';
import { PasskeyRegistrationService } from './passkey-registration.service';
import { PasskeySignInService } from './passkey-sign-in.service';

/** Set by "Not now" on the passkey offer: no offer on this device for a while (unless the organization requires a passkey). */
export const PASSKEY_SKIP_COOKIE = 'sesame_passkey_skip';
const PASSKEY_SKIP_SECONDS = 30 * 24 * 3600;

/** Where a stopped attempt sends the hosted page back to, as the link would. */
const STOPPED: Record<string, [string, string]> = {
  completed: ['login_link_used', 'This sign-in was already completed'],
  expired: ['login_link_expired', 'This sign-in has expired'],
  locked: ['login_attempt_locked', 'This sign-in was stopped'],
};

export interface BrowserContext {
  cookieHeader: string | undefined;
  acceptLanguage: string | undefined;
  requestId: string | null;
  userAgent?: string;
  /** The client's address as the proxy settings resolve it. */
  ip?: string;
}

/** What the "check your inbox" page shows of an attempt. */
interface InboxView {
  email: string;
  sentence: string;
  allowedDate: Date;
  approvalNumber: string;
}

/** How long the "check your inbox" page's own request waits for an approval before the page reloads. */
const PAGE_WAIT_SECONDS = 20;

/** The hosted login page (/v1/authorize) for every application type and plan. */
@Injectable()
export class LoginPageService {
  private readonly logger = new Logger(LoginPageService.name);
  private readonly csrf: CsrfTokens;
  private readonly cookieAttributes: string;
  private readonly codeAction: string;
  private readonly statusPath: string;
  private readonly watchPath: string;
  private readonly attemptCookieAttributes: string;
  private readonly passkeyPath: string;
  private readonly skipCookie: string;

  constructor(
    private readonly hosted: HostedRequests,
    private readonly attempts: LoginAttemptService,
    private readonly codes: LoginCodeService,
    private readonly links: LoginLinkService,
    private readonly contexts: ClientContexts,
    private readonly numbers: ApprovalNumbers,
    private readonly passkeySignIn: PasskeySignInService,
    private readonly passkeyRegistration: PasskeyRegistrationService,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.csrf = hosted.csrf;
    const secure = config.http.publicBaseUrl.startsWith('https:') ? '; Secure' : '';
    this.codeAction = `/${config.http.apiPrefix}/v1/authorize/code`;
    this.statusPath = `/${config.http.apiPrefix}/v1/authorize/status`;
    this.watchPath = `/${config.http.apiPrefix}/v1/authorize/watch`;
    this.passkeyPath = `/${config.http.apiPrefix}/v1/authorize/passkey`;
    this.skipCookie = `${PASSKEY_SKIP_COOKIE}=1; Path=/${config.http.apiPrefix}/v1/authorize; Max-Age=${PASSKEY_SKIP_SECONDS}; SameSite=Lax${secure}`;
    // Lax and on all of /v1: the link page (a top-level navigation from the mailbox) reads it too.
    this.attemptCookieAttributes = `Path=/${config.http.apiPrefix}/v1; HttpOnly; SameSite=Lax; Max-Age=86400${secure}`;
    this.cookieAttributes = `Path=/${config.http.apiPrefix}/v1/authorize; HttpOnly; SameSite=Strict; Max-Age=3600${secure}`;
  }

  /** GET: checks everything before showing anything, then shows the form with a fresh CSRF pair. */
  async show(params: Record<string, unknown>, browser: BrowserContext): Promise<RenderedPage> {
    const { context, request } = await this.check(params);
    const { cookieValue, formValue } = this.csrf.issue();
    const page = signInForm({
      context,
      locale: this.locale(request, browser),
      hidden: hiddenParameters(request),
      csrf: formValue,
      email: request.loginHint,
      passkeys: this.passkeyUrls(context),
    });
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
      new PageWithStatus(
        status,
        signInForm({
          context,
          locale,
          hidden: hiddenParameters(request),
          csrf: this.csrf.formValueFor(cookie!),
          email: typed,
          error,
          passkeys: this.passkeyUrls(context),
        }),
      );
    if (!email) throw again(400, PAGE_STRINGS[locale].invalidEmail);

    // The browser's own secret: only it follows the attempt, and its approval number derives from it.
    const browserCookie = randomSecret();
    const approvalNumber = this.numbers.forBrowser(browserCookie);
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
        userAgent: browser.userAgent ?? null,
        ip: browser.ip && browser.ip !== 'unknown' ? browser.ip : null,
        browserHash: sha256(browserCookie),
        approvalNumber,
      });
      const page = this.inbox(context, request, locale, cookie, started.loginAttemptId, {
        email,
        sentence: started.sentence,
        allowedDate: started.allowedDate,
        approvalNumber,
      });
      return { ...page, headers: { 'Set-Cookie': `${ATTEMPT_COOKIE}=${browserCookie}; ${this.attemptCookieAttributes}` } };
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
   * Only the browser that asked may type a code (nobody else can burn its attempt's tries).
   */
  async submitCode(form: Record<string, unknown>, browser: BrowserContext): Promise<{ url: string; cookie?: string }> {
    const { context, request } = await this.check(form);
    const locale = this.locale(request, browser);
    const cookie = this.requireCsrf(form, browser);
    const loginAttemptId = attemptIdOf(form);
    if (!loginAttemptId)
      throw problem('invalid_request', 'This form is incomplete. Go back to the application and start signing in again.');
    const browserCookie = this.requireAttemptCookie(browser);
    const by = { browserHash: sha256(browserCookie) };
    try {
      const success = await this.codes.use(loginAttemptId, form.code, context.application.id, by, { walk: true });
      if (form.passkey_offer === '1') await this.offerPasskey(context, locale, success, browserCookie, cookie, browser);
      return { url: success.url, cookie: success.kind === 'walk' ? success.cookie : undefined };
    } catch (error) {
      if (!(error instanceof ProblemException)) throw error;
      const retry = CODE_RETRY_MESSAGES[error.code];
      if (retry) {
        const view = await this.attempts.inboxView(context.application.id, loginAttemptId, by);
        const page = this.inbox(
          context,
          request,
          locale,
          cookie,
          loginAttemptId,
          { ...view, approvalNumber: this.numbers.forBrowser(browserCookie) },
          PAGE_STRINGS[locale][retry],
        );
        throw new PageWithStatus(400, page);
      }
      // A callback URL no longer allowed gets an error page, never a redirect to it.
      if (error.code === 'not_found' || error.code === 'invalid_redirect_uri') throw error;
      throw new PageRedirect(withQuery(request.redirectUri, { error: error.code, error_description: error.detail, state: request.state }));
    }
  }

  /**
   * POST /v1/authorize/link: "Continue here" on the e-mailed link's page, sent here instead of to
   * the link's own POST by the page's script in a browser that can make a passkey. Uses the link
   * as that POST does; when the login was asked for in this browser (its `sesame_attempt` cookie,
   * with the hosted page's CSRF cookie) the passkey offer comes first, as after a code typed here.
   */
  async continueFromLink(token: unknown, browser: BrowserContext): Promise<LinkRedirect> {
    const attemptCookie = readCookie(browser.cookieHeader, ATTEMPT_COOKIE);
    const outcome = await this.links.use(token, attemptCookie);
    const csrfCookie = readCookie(browser.cookieHeader, CSRF_COOKIE);
    if (!outcome.completedHere || !attemptCookie || !csrfCookie) return outcome;
    const context = await this.contexts.find(outcome.completedHere.applicationId);
    if (context) {
      const locale = chooseLocale(undefined, browser.acceptLanguage);
      await this.offerPasskey(context, locale, outcome.completedHere.completion, attemptCookie, csrfCookie, browser);
    }
    return outcome;
  }

  /**
   * GET /v1/authorize/watch: what the "check your inbox" page's script waits on (without reloading
   * the page over a code being typed). Held like status; answers the attempt's status and collects
   * nothing: once it is no longer pending, the page goes to status, which does.
   */
  async watch(params: Record<string, unknown>, browser: BrowserContext): Promise<{ status: LoginAttemptStatus }> {
    const { context } = await this.check(params);
    const loginAttemptId = attemptIdOf(params);
    const browserCookie = this.requireAttemptCookie(browser);
    if (!loginAttemptId) throw unknownHere();
    const by = { browserHash: sha256(browserCookie) };
    return { status: await this.attempts.watch(context.application.id, loginAttemptId, PAGE_WAIT_SECONDS, by) };
  }

  /**
   * GET /v1/authorize/status: where the "check your inbox" page goes on by itself. Held while the
   * attempt is pending (up to PAGE_WAIT_SECONDS, answering at once on a change on any instance);
   * approved on another device, it goes on to the callback with code and state; still pending,
   * it shows the page again; used, expired or locked, it goes back to the application with the error.
   * Only the browser that asked (its `sesame_attempt` cookie) gets anything.
   */
  async status(params: Record<string, unknown>, browser: BrowserContext): Promise<RenderedPage> {
    const { context, request } = await this.check(params);
    const locale = this.locale(request, browser);
    const loginAttemptId = attemptIdOf(params);
    const browserCookie = this.requireAttemptCookie(browser);
    const csrfCookie = readCookie(browser.cookieHeader, CSRF_COOKIE);
    if (!loginAttemptId || !csrfCookie) throw unknownHere();
    const by = { browserHash: sha256(browserCookie) };
    const { answer, completion } = await this.attempts.status(context.application.id, loginAttemptId, PAGE_WAIT_SECONDS, by);
    if (completion && completion.kind !== 'blocked' && params.passkey_offer === '1')
      await this.offerPasskey(context, locale, completion, browserCookie, csrfCookie, browser);
    if (completion) throw new PageRedirect(completion.url, 303, completion.kind === 'walk' ? { 'Set-Cookie': completion.cookie } : {});
    if (answer.status === 'pending') {
      const view = await this.attempts.inboxView(context.application.id, loginAttemptId, by);
      return this.inbox(context, request, locale, csrfCookie, loginAttemptId, {
        ...view,
        approvalNumber: this.numbers.forBrowser(browserCookie),
      });
    }
    const [error, description] = STOPPED[answer.status] ?? STOPPED.expired;
    throw new PageRedirect(withQuery(request.redirectUri, { error, error_description: description, state: request.state }));
  }

  private inbox(
    context: ClientContext,
    request: AuthorizeRequest,
    locale: Locale,
    csrfCookie: string,
    loginAttemptId: string,
    view: InboxView,
    error?: string,
  ): RenderedPage {
    return checkInbox({
      context,
      locale,
      ...view,
      minutes: Math.round(context.organization.linkTtlSeconds / 60),
      codeForm: {
        action: this.codeAction,
        hidden: hiddenParameters(request),
        csrf: this.csrf.formValueFor(csrfCookie),
        loginAttemptId,
        redirectUri: request.redirectUri,
      },
      ...this.waitUrls(request, loginAttemptId),
      error,
      probePasskeys: this.passkeySignIn.offered(context),
    });
  }

  private waitUrls(request: AuthorizeRequest, loginAttemptId: string): { statusUrl: string; watchUrl: string } {
    const query = new URLSearchParams({ ...hiddenParameters(request), login_attempt_id: loginAttemptId }).toString();
    return { statusUrl: `${this.statusPath}?${query}`, watchUrl: `${this.watchPath}?${query}` };
  }

  /** The passkey requests of the sign-in form, when the organization offers passkeys. */
  private passkeyUrls(context: ClientContext): { optionsUrl: string; verifyUrl: string } | undefined {
    if (!this.passkeySignIn.offered(context)) return undefined;
    return { optionsUrl: `${this.passkeyPath}/options`, verifyUrl: `${this.passkeyPath}/verify` };
  }

  /**
   * After an e-mailed login completed in the browser that asked, when its page reported that it can
   * make a passkey: the offer screen instead of the redirect (thrown, as the handler's answer is a
   * redirect otherwise), which goes on to the same place. Nothing when there is no offer to make.
   */
  private async offerPasskey(
    context: ClientContext,
    locale: Locale,
    completion: CodeSuccess,
    attemptCookie: string,
    csrfCookie: string,
    browser: BrowserContext,
  ): Promise<void> {
    const skippedHere = readCookie(browser.cookieHeader, PASSKEY_SKIP_COOKIE) === '1';
    // The login has completed: an offer that fails (Postgres away) must not keep its code from the application.
    const offer = await this.passkeyRegistration
      .offer({ context, userId: completion.userId, loginAttemptId: completion.attemptId, attemptCookie, csrfCookie }, skippedHere)
      .catch((error: Error) => {
        this.logger.warn(`No passkey offer after login attempt ${completion.attemptId}: ${error.message}`);
        return null;
      });
    if (!offer) return;
    const page = passkeyOffer({
      context,
      locale,
      continueUrl: completion.url,
      registrationId: offer.registrationId,
      csrf: this.csrf.formValueFor(csrfCookie),
      optionsUrl: `${this.passkeyPath}/register/options`,
      verifyUrl: `${this.passkeyPath}/register/verify`,
      skippable: offer.skippable,
      skipCookie: this.skipCookie,
    });
    throw new PageWithStatus(200, page, completion.kind === 'walk' ? { 'Set-Cookie': completion.cookie } : {});
  }

  /** The `sesame_attempt` cookie of the browser that asked; without it the attempt is not known here. */
  private requireAttemptCookie(browser: BrowserContext): string {
    const cookie = readCookie(browser.cookieHeader, ATTEMPT_COOKIE);
    if (!cookie) throw unknownHere();
    return cookie;
  }

  /** The form's CSRF pair must match; returns the cookie's value. */
  private requireCsrf(form: Record<string, unknown>, browser: BrowserContext): string {
    return this.hosted.requireCsrf(form, browser.cookieHeader);
  }

  private check(params: Record<string, unknown>): Promise<{ context: ClientContext; request: AuthorizeRequest }> {
    return this.hosted.check(params);
  }

  private locale(request: AuthorizeRequest, browser: BrowserContext): Locale {
    return chooseLocale(request.uiLocales, browser.acceptLanguage);
  }
}

/** Code errors that show the page again (with the message of this key of PAGE_STRINGS); the others end the attempt here. */
const CODE_RETRY_MESSAGES: Record<string, 'wrongCode' | 'badCode' | 'codesDisabled'> = {
  invalid_login_code: 'wrongCode',
  invalid_request: 'badCode',
  login_code_disabled: 'codesDisabled',
};

function attemptIdOf(params: Record<string, unknown>): string | null {
  return typeof params.login_attempt_id === 'string' && isUUID(params.login_attempt_id) ? params.login_attempt_id : null;
}

function unknownHere(): ProblemException {
  return problem('not_found', 'This sign-in is not known in this browser. Go back to the application and start again.');
}
