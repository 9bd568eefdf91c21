import { Inject, Injectable, Logger } from '@nestjs/common';
import { InvalidStateError, ProviderError, RateLimitedError, SesameClient, SesameError } from '@sesame/client';
import { Clock, problem, ProblemException, relayedProblem, SESAME_CONFIG, SesameConfig, validEmail } from '@sesame/common';
import { clientIp } from '@sesame/throttler';
import { ManagementApi, Membership, sesameUnavailable } from '../management/management-api';
import { BufferedResponse, requestLike } from '../http/buffered-response';
import { SESSION_COOKIES } from './sesame-client.provider';

export interface Session {
  /** The verified address the person signed in with. */
  email: string;
  /** The tenants they are a member of: empty means they may do nothing. */
  memberships: Membership[];
}

export interface SignInStarted {
  email: string;
  loginAttemptId: string;
  sentence: string;
  approvalNumber: string;
  allowedDate: Date;
}

/** Where a sign-in started in this browser stands; `completed` also when this call completed it here. */
export type SignInStatus = 'pending' | 'completed' | 'expired' | 'locked';

/** Sesame's refusals of a typed code that the person can act on, answered with Sesame's own code. */
const CODE_REFUSALS = new Set([
  'invalid_request',
  'invalid_login_code',
  'login_code_disabled',
  'login_attempt_locked',
  'login_link_used',
  'login_link_expired',
  'access_denied',
]);

/**
 * Signing people in and out of the console with @sesame/client: the e-mailed link, the callback
 * (state and PKCE checked by the library, the access token kept in its HttpOnly cookie), and
 * sign-out, which revokes the token (RFC 7009). Who the person is and what they belong to comes
 * from the management API (GET /v2/me), never from the console itself.
 */
@Injectable()
export class ConsoleSessionService {
  private readonly logger = new Logger(ConsoleSessionService.name);
  private readonly home: string;

  constructor(
    private readonly sesame: SesameClient,
    private readonly management: ManagementApi,
    private readonly clock: Clock,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.home = `${config.console.publicUrl}/`;
  }

  /** The access token of the request's session cookie, or null. */
  token(request: unknown): string | null {
    return this.sesame.getAccessToken(requestLike(request));
  }

  /** The signed-in person, or null (no cookie, or a token Sesame no longer accepts: then the cookie is cleared). */
  async current(request: unknown, response: BufferedResponse, requestId: string | null): Promise<Session | null> {
    const token = this.token(request);
    if (!token) return null;
    const me = await this.management.me(token, requestId, clientIp(request as never));
    if (!me) this.forgetSession(response);
    return me;
  }

  /** Sends the e-mailed sign-in link; the waiting page shows the sentence (the e-mail shows it too) and the approval number (only there). */
  async signIn(request: unknown, response: BufferedResponse, input: string): Promise<SignInStarted> {
    const email = validEmail(input);
    try {
      const attempt = await this.sesame.authenticateDirect(requestLike(request), response, { email, returnTo: this.home });
      return {
        email,
        loginAttemptId: attempt.loginAttemptId,
        sentence: attempt.sentence,
        approvalNumber: attempt.approvalNumber,
        allowedDate: attempt.allowedDate,
      };
    } catch (error) {
      throw this.signInProblem(error);
    }
  }

  /** The e-mail's code, typed on the waiting page: signs this browser in (the session cookie is set on `response`). */
  async signInWithCode(request: unknown, response: BufferedResponse, loginAttemptId: string, code: string): Promise<void> {
    try {
      await this.sesame.verifyCode(requestLike(request), response, { loginAttemptId, code });
    } catch (error) {
      throw this.completionProblem(error);
    }
  }

  /**
   * The status of a sign-in this browser started, held up to `waitSeconds` while it is pending.
   * When the link was approved on another device, this completes the sign-in here (session cookie on `response`).
   */
  async signInStatus(request: unknown, response: BufferedResponse, loginAttemptId: string, waitSeconds: number): Promise<SignInStatus> {
    try {
      return (await this.sesame.loginStatus(requestLike(request), response, { loginAttemptId, waitSeconds })).status;
    } catch (error) {
      throw this.completionProblem(error);
    }
  }

  /**
   * Finishes a sign-in at the callback: where to send the browser next. On success the session
   * cookie is set (on `response`); on any failure the console's home with `sign_in_error=<code>`.
   */
  async callback(request: unknown, response: BufferedResponse): Promise<string> {
    try {
      await this.sesame.callback(requestLike(request), response);
      return response.location ?? this.home;
    } catch (error) {
      const code = error instanceof ProviderError ? error.error : error instanceof InvalidStateError ? 'invalid_state' : 'sign_in_failed';
      if (!(error instanceof ProviderError) && !(error instanceof InvalidStateError))
        this.logger.warn(`Sign-in callback failed: ${(error as Error).message}`);
      return `${this.home}?sign_in_error=${encodeURIComponent(code)}`;
    }
  }

  /** Clears the session cookie and revokes the token at Sesame. */
  async signOut(request: unknown, response: BufferedResponse): Promise<void> {
    try {
      await this.sesame.logout(requestLike(request), response);
    } catch (error) {
      this.logger.warn(`Could not revoke a console token at sign-out: ${(error as Error).message}`);
      throw sesameUnavailable();
    }
  }

  /** Clears a session cookie whose token is no longer accepted. */
  forgetSession(response: BufferedResponse): void {
    response.appendCookie(
      `${SESSION_COOKIES.session}=; Path=${SESSION_COOKIES.path}; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax`,
    );
  }

  private completionProblem(error: unknown): ProblemException {
    if (error instanceof InvalidStateError || (error instanceof ProviderError && error.status === 404)) {
      return problem('sign_in_not_found', 'This sign-in was not started in this browser, or too long ago. Ask for a new link.');
    }
    if (error instanceof ProviderError && CODE_REFUSALS.has(error.error))
      return relayedProblem(400, error.error, error.errorDescription ?? 'The code was refused.');
    return this.signInProblem(error);
  }

  private signInProblem(error: unknown): ProblemException {
    if (error instanceof RateLimitedError && error.allowedDate) {
      const allowedDate = error.allowedDate.toISOString();
      return problem('too_early', `A sign-in link was sent to this address moments ago; the next can be sent at ${allowedDate}`, {
        extensions: { allowedDate },
        headers: { 'Retry-After': String(Math.max(1, Math.ceil((error.allowedDate.getTime() - this.clock.now().getTime()) / 1000))) },
      });
    }
    if (error instanceof RateLimitedError) {
      return problem('rate_limited', 'Too many sign-ins right now; retry shortly', {
        headers: { 'Retry-After': String(error.retryAfter ?? 60) },
      });
    }
    if (error instanceof ProviderError && error.status !== null && error.status < 500) {
      this.logger.warn(`Sesame refused a console sign-in: ${error.error}`);
      return problem('sign_in_refused', 'Sesame refused the sign-in; is the console set up for CONSOLE_PUBLIC_URL?');
    }
    if (error instanceof SesameError && error.code !== 'unreachable') return relayedProblem(400, error.code, error.message);
    this.logger.warn(`Sign-in could not be started: ${(error as Error).message}`);
    return sesameUnavailable();
  }
}
