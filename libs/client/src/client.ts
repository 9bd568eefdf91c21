import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { URL } from 'node:url';
import { appendSetCookie, parseCookies, RequestLike, ResponseLike, serializeCookie } from './cookies';
import { InvalidStateError, ProviderError, SesameError } from './errors';
import { createPkcePair, DEFAULT_RETRY, FetchFunction, RetryOptions, SesameApi, SesameHttp } from '@sesame/client-core';
import { basicAuthorization } from './credentials';
import { decodeLoginCookie, encodeLoginCookie, keptLogins, PendingLogin } from './login-cookie';
import { clientAddress, currentUrl, resolveReturnTo, withoutCallbackParameters } from './request-url';
import { createSignedState, nodeCrypto, verifySignedState } from './state';
import {
  AuthenticateDirectConfig,
  CallbackContext,
  CallbackHooks,
  CallbackResult,
  CompletedLogin,
  LoginAttempt,
  LoginStatus,
  PasskeyRegistrationOptions,
  PasskeySignInConfig,
  PasskeySignInOptions,
  RegisteredPasskey,
  UserPasskey,
  ReplacementResponse,
  SesameUser,
} from './types';

export interface SesameClientOptions {
  /** Sesame's public base URL with its API prefix, e.g. `https://auth.example.com/api` (the part before `/v1`). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /**
   * Path of the application's callback route (default `/callback`). The redirect_uri sent to Sesame
   * is this path on the origin of the return address; register it as the application's callback URL.
   */
  callbackPath?: string;
  cookies?: {
    /** Name of the cookie holding the access token (default `sesame_session`). */
    session?: string;
    /** Name of the short-lived cookie holding the state and PKCE verifier of logins in progress (default `sesame_login`). */
    login?: string;
    /** Path of both cookies (default `/`). */
    path?: string;
    /** Domain attribute of both cookies (default: none, the current host only). */
    domain?: string;
  };
  /**
   * Seconds a started login stays usable in this browser: the login cookie's lifetime (default
   * 1800). Keep it above the organization's link lifetime (default 600).
   */
  loginTimeoutSeconds?: number;
  /**
   * Take part in autologin walks (docs/autologin.md): a callback carrying `autologin_continue` is
   * then handled as a stop, its signed state checked and its code exchanged with `autologin=true`.
   * Off by default: without it such a callback is an ordinary one (its state must be this browser's).
   */
  autologin?: boolean;
  /** Oldest signed state accepted on an autologin stop, in seconds (default loginTimeoutSeconds + 600, the walk's own 10 minutes). */
  stateMaxAgeSeconds?: number;
  /** Read the scheme and host from X-Forwarded-Proto and X-Forwarded-Host (only behind a proxy that sets them). */
  trustProxy?: boolean;
  /** The fetch to use (default: the global fetch of Node 18+). */
  fetch?: FetchFunction;
  /** Retries of what Sesame did nothing with: 429, 503 with Retry-After, a GET after a network error (exponential backoff). */
  retry?: Partial<RetryOptions>;
  /** Milliseconds a request to Sesame may take before it fails with SesameError `timeout` (default 30000). */
  timeoutMs?: number;
  /** Waits between retries (default: a timer; tests pass their own). */
  sleep?: (ms: number) => Promise<void>;
}

type Next = (error?: unknown) => void;

/**
 * Sesame client for Node servers with Express-style (or plain node:http) request and response
 * objects: direct authentication by e-mailed link, the callback with state and PKCE checks and the
 * code exchange, an access-token session cookie, the user, logout, and autologin stops.
 */
export class SesameClient {
  private readonly baseUrl: string;
  private readonly http: SesameHttp;
  private readonly api: SesameApi;
  private readonly authorization: string;
  private readonly callbackPath: string;
  private readonly sessionCookie: string;
  private readonly loginCookie: string;
  private readonly cookiePath: string;
  private readonly cookieDomain: string | undefined;
  private readonly loginTimeout: number;
  private readonly stateMaxAge: number;
  private readonly trustProxy: boolean;
  private readonly autologin: boolean;

  constructor(private readonly options: SesameClientOptions) {
    if (!options.clientId || !options.clientSecret) throw new TypeError('clientId and clientSecret are required');
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    const fetchFunction = options.fetch ?? (globalThis.fetch as unknown as FetchFunction | undefined);
    if (!fetchFunction) throw new TypeError('No fetch: use Node 18 or newer, or pass options.fetch');
    this.http = new SesameHttp({
      baseUrl: this.baseUrl,
      fetch: fetchFunction,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      sleep: options.sleep,
      timeoutMs: options.timeoutMs,
      redirect: 'manual',
    });
    this.authorization = basicAuthorization(options.clientId, options.clientSecret);
    this.api = new SesameApi(this.http, { headers: { authorization: this.authorization }, form: {} });
    this.callbackPath = options.callbackPath ?? '/callback';
    if (!this.callbackPath.startsWith('/') || this.callbackPath.startsWith('//'))
      throw new TypeError('callbackPath must be a path starting with a single /');
    this.sessionCookie = options.cookies?.session ?? 'sesame_session';
    this.loginCookie = options.cookies?.login ?? 'sesame_login';
    this.cookiePath = options.cookies?.path ?? '/';
    this.cookieDomain = options.cookies?.domain;
    this.loginTimeout = options.loginTimeoutSeconds ?? 1800;
    this.stateMaxAge = options.stateMaxAgeSeconds ?? this.loginTimeout + 600;
    this.trustProxy = options.trustProxy ?? false;
    this.autologin = options.autologin ?? false;
  }

  /**
   * Starts a login by e-mailed link (POST /v1/authenticate_direct): creates the state (unless given)
   * and a PKCE pair, keeps them in the login cookie, and returns the login attempt, whose sentence
   * and approval number the app shows (the number only on this waiting screen: typed on another
   * device, it signs this browser in; see loginStatus). Throws RateLimitedError (with allowedDate) when the address must wait, and
   * ProviderError for Sesame's refusals (e.g. `invalid_request` for a redirect_uri outside the whitelist).
   */
  async authenticateDirect(req: RequestLike, res: ResponseLike, config: AuthenticateDirectConfig): Promise<LoginAttempt> {
    if (typeof config?.email !== 'string' || config.email.trim() === '') throw new SesameError('invalid_request', 'email is required');
    if (config.state !== undefined && (typeof config.state !== 'string' || config.state === ''))
      throw new SesameError('invalid_request', 'state must be a non-empty string');
    const { url: target } = resolveReturnTo(req, config.returnTo, this.trustProxy);
    const redirectUri = new URL(this.callbackPath, target.origin).href;
    const state = config.state ?? createSignedState(this.options.clientSecret);
    const { verifier, challenge } = await createPkcePair(nodeCrypto);

    const answer = await this.http.postJson(
      '/v1/authenticate_direct',
      {
        email: config.email.trim(),
        redirect_uri: redirectUri,
        state,
        ...(config.translations ? { translations: config.translations } : {}),
        ...userAgentOf(req),
        ...userIpOf(req, this.trustProxy),
        code_challenge: challenge,
        code_challenge_method: 'S256',
      },
      { authorization: this.authorization },
    );
    const body = answer.body as { loginAttemptId: string; token: string; sentence: string; approvalNumber: string; allowedDate: string };

    const now = Math.floor(Date.now() / 1000);
    const pending = this.pendingLogins(req).filter((login) => login.state !== state);
    const login: PendingLogin = {
      state,
      verifier,
      redirectUri,
      returnTo: target.href,
      createdAt: now,
      loginAttemptId: body.loginAttemptId,
    };
    this.writeLoginCookie(res, keptLogins([login, ...pending]));
    return {
      loginAttemptId: body.loginAttemptId,
      token: body.token,
      sentence: body.sentence,
      approvalNumber: body.approvalNumber,
      allowedDate: new Date(body.allowedDate),
      state,
      redirectUri,
      returnTo: target.href,
    };
  }

  /**
   * Signs in with the 6-digit code of the login e-mail, typed in the browser that asked
   * (POST /v1/login_code): the attempt must be one this browser started (its login cookie), the
   * code is exchanged with the login's PKCE verifier, and the session cookie is set. Throws
   * ProviderError for Sesame's refusals (`invalid_login_code`, `login_attempt_locked`,
   * `login_link_used`, `login_link_expired`) and InvalidStateError('unknown_state') for an attempt
   * this browser did not start.
   */
  async verifyCode(req: RequestLike, res: ResponseLike, input: { loginAttemptId: string; code: string }): Promise<CompletedLogin> {
    const { pending, login } = this.pendingAttempt(req, input.loginAttemptId);
    const answer = await this.http.postJson(
      '/v1/login_code',
      { loginAttemptId: input.loginAttemptId, code: String(input.code ?? '') },
      { authorization: this.authorization },
    );
    const body = answer.body as { code: string; state: string };
    return this.completeLogin(res, pending, login, body.code, body.state);
  }

  /**
   * The status of a login this browser started, waiting up to `waitSeconds` (at most 25) for a
   * change (GET /v1/login_attempt/{id}?wait=). When the link was approved on another device, it
   * completes the login here (code exchange, session cookie) and answers `completed` with the
   * user and where to go; otherwise the attempt's status (`pending`, `completed`, `expired`, `locked`).
   */
  async loginStatus(req: RequestLike, res: ResponseLike, input: { loginAttemptId: string; waitSeconds?: number }): Promise<LoginStatus> {
    const { pending, login } = this.pendingAttempt(req, input.loginAttemptId);
    const wait = Math.max(0, Math.min(25, Math.floor(input.waitSeconds ?? 25)));
    const answer = await this.http.get(`/v1/login_attempt/${encodeURIComponent(input.loginAttemptId)}?wait=${wait}`, {
      authorization: this.authorization,
    });
    const body = answer.body as { status: LoginStatus['status'] | 'approved'; code?: string; state?: string };
    // 'approved' without a code: another request of this browser collected it.
    if (!body.code || !body.state) return { status: body.status === 'approved' ? 'completed' : body.status };
    const completed = await this.completeLogin(res, pending, login, body.code, body.state);
    return { status: 'completed', ...completed };
  }

  /** An Express route handler answering loginStatus as JSON: `app.get('/login/status', sesame.loginStatusHandler())` with `?loginAttemptId=`. */
  loginStatusHandler<Req extends RequestLike, Res extends ResponseLike>(): (req: Req, res: Res, next: Next) => void {
    return (req, res, next) => {
      const loginAttemptId = currentUrl(req, this.trustProxy).searchParams.get('loginAttemptId') ?? '';
      this.loginStatus(req, res, { loginAttemptId }).then(
        (status) =>
          send(res, {
            status: 200,
            headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
            body: JSON.stringify({ status: status.status, returnTo: status.returnTo ?? null }),
          }),
        (error: unknown) => next(error),
      );
    };
  }

  /**
   * Starts a passkey sign-in on the app's own page (POST /v1/passkey_direct/options): creates the
   * state (unless given) and a PKCE pair for the login, keeps them with the options' challenge in
   * the login cookie, and returns the WebAuthn options for the page's ceremony
   * (`startAuthentication({ optionsJSON })`). The page's origin (default: the current request's)
   * must be a whitelist domain of the organization. Throws ProviderError for Sesame's refusals
   * (`invalid_request`, `passkeys_off`).
   */
  async passkeySignInOptions(req: RequestLike, res: ResponseLike, config: PasskeySignInConfig = {}): Promise<PasskeySignInOptions> {
    if (config.state !== undefined && (typeof config.state !== 'string' || config.state === ''))
      throw new SesameError('invalid_request', 'state must be a non-empty string');
    const { url: target } = resolveReturnTo(req, config.returnTo, this.trustProxy);
    const redirectUri = new URL(this.callbackPath, target.origin).href;
    const state = config.state ?? createSignedState(this.options.clientSecret);
    const { verifier, challenge } = await createPkcePair(nodeCrypto);
    const answer = await this.http.postJson(
      '/v1/passkey_direct/options',
      {
        origin: this.pageOrigin(req, config.origin),
        redirect_uri: redirectUri,
        state,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      },
      { authorization: this.authorization },
    );
    const options = answer.body as PasskeySignInOptions;
    const pending = this.pendingLogins(req).filter((login) => login.state !== state);
    const login: PendingLogin = {
      state,
      verifier,
      redirectUri,
      returnTo: target.href,
      createdAt: Math.floor(Date.now() / 1000),
      passkeyChallenge: options.challenge,
    };
    this.writeLoginCookie(res, keptLogins([login, ...pending]));
    return options;
  }

  /**
   * Completes a passkey sign-in with the browser's answer (the page's `startAuthentication` result):
   * finds the login this browser started for the answer's challenge (its login cookie), has Sesame
   * verify it (POST /v1/passkey_direct/verify), exchanges the code with the login's PKCE verifier
   * and sets the session cookie. Throws InvalidStateError('unknown_state') for an answer to no
   * options of this browser, and ProviderError for Sesame's refusals (`passkey_refused`,
   * `passkey_challenge_invalid`: ask for new options).
   */
  async verifyPasskeySignIn(req: RequestLike, res: ResponseLike, input: { response: unknown; origin?: string }): Promise<CompletedLogin> {
    const challenge = challengeOfAnswer(input?.response);
    const pending = this.pendingLogins(req);
    const login = challenge ? pending.find((candidate) => candidate.passkeyChallenge === challenge) : undefined;
    if (!login) throw new InvalidStateError('unknown_state');
    const answer = await this.http.postJson(
      '/v1/passkey_direct/verify',
      {
        origin: this.pageOrigin(req, input.origin),
        redirect_uri: login.redirectUri,
        state: login.state,
        code_challenge: pkceChallengeOf(login.verifier),
        code_challenge_method: 'S256',
        response: input.response,
        ...userAgentOf(req),
        ...userIpOf(req, this.trustProxy),
      },
      { authorization: this.authorization },
    );
    const body = answer.body as { code: string; state: string };
    return this.completeLogin(res, pending, login, body.code, body.state);
  }

  /**
   * WebAuthn creation options for the signed-in user to create a passkey on the app's page
   * (POST /v1/passkey_direct/register/options), with the session's access token: allowed within
   * 10 minutes of signing in, once per login. Throws SesameError('invalid_token') without a
   * session, and ProviderError for Sesame's refusals (`passkey_registration_not_allowed`).
   */
  async passkeyRegistrationOptions(req: RequestLike, config: { origin?: string } = {}): Promise<PasskeyRegistrationOptions> {
    const answer = await this.http.postJson(
      '/v1/passkey_direct/register/options',
      { access_token: this.requireAccessToken(req), origin: this.pageOrigin(req, config.origin) },
      { authorization: this.authorization },
    );
    return answer.body as PasskeyRegistrationOptions;
  }

  /**
   * Stores the passkey the page's ceremony created (`startRegistration`'s result) with Sesame
   * (POST /v1/passkey_direct/register/verify): reported as `passkey.registered` and audited.
   * Throws ProviderError for Sesame's refusals (`passkey_refused`, `passkey_challenge_invalid`,
   * `passkey_registration_not_allowed`, `passkey_exists`).
   */
  async verifyPasskeyRegistration(req: RequestLike, input: { response: unknown; origin?: string }): Promise<RegisteredPasskey> {
    const answer = await this.http.postJson(
      '/v1/passkey_direct/register/verify',
      {
        access_token: this.requireAccessToken(req),
        origin: this.pageOrigin(req, input.origin),
        response: input.response,
        ...userAgentOf(req),
        ...userIpOf(req, this.trustProxy),
      },
      { authorization: this.authorization },
    );
    const body = answer.body as { passkeyId: string; name: string };
    return { passkeyId: body.passkeyId, name: body.name };
  }

  /** The signed-in user's passkeys, oldest first (GET /v1/passkeys with the session's access token), for an account page. */
  async listPasskeys(req: RequestLike): Promise<UserPasskey[]> {
    const answer = await this.http.get('/v1/passkeys', { authorization: `Bearer ${this.requireAccessToken(req)}` });
    return (answer.body as { data: UserPasskey[] }).data;
  }

  /**
   * Removes one of the signed-in user's passkeys (DELETE /v1/passkeys/{id}): it stops signing in at
   * once. Throws ProviderError('not_found') for an id that is not one of theirs.
   */
  async removePasskey(req: RequestLike, passkeyId: string): Promise<void> {
    await this.http.send(`/v1/passkeys/${encodeURIComponent(passkeyId)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${this.requireAccessToken(req)}` },
    });
  }

  /**
   * Handles the callback: reads code and state (or error and error_description), checks the state
   * (onStateReceived, or the library's own check), exchanges the code, sets the session cookie,
   * fetches the user and calls onAfterCallback. Then it answers: with the hook's replacement
   * response, or by redirecting (303) to the return address, or on an autologin stop to the
   * walk's continuation on Sesame. On failure it throws and leaves the response to the app.
   */
  async callback<Req extends RequestLike, Res extends ResponseLike>(
    req: Req,
    res: Res,
    hooks: CallbackHooks<Req, Res> = {},
  ): Promise<CallbackResult> {
    const url = currentUrl(req, this.trustProxy);
    const query = url.searchParams;
    const state = query.get('state');
    const pending = this.pendingLogins(req);
    const started = state === null ? undefined : pending.find((login) => login.state === state);

    const error = query.get('error');
    if (error !== null) {
      // The login is over either way: forget it (only when the state proves it is this browser's).
      if (started)
        this.writeLoginCookie(
          res,
          pending.filter((login) => login !== started),
        );
      throw new ProviderError(error, query.get('error_description'));
    }
    const code = query.get('code');
    if (state === null || state === '') throw new InvalidStateError('missing_state');
    if (code === null || code === '') throw new SesameError('invalid_request', 'The callback has neither code nor error');

    // Only a client configured for autologin treats a callback as a walk's stop: the parameter alone
    // is the attacker's to add, and must not switch the state check to the signature.
    const continueParameter = query.get('autologin_continue');
    const autologin = this.autologin && continueParameter !== null;
    const continueUrl = autologin ? this.checkedContinueUrl(continueParameter!) : null;

    if (hooks.onStateReceived) {
      if (!(await hooks.onStateReceived(req, state))) throw new InvalidStateError('rejected');
    } else if (autologin) {
      // A stop of an autologin walk: this domain did not start the login, so it checks the signature.
      if (!verifySignedState(this.options.clientSecret, state, this.stateMaxAge)) throw new InvalidStateError('bad_signature');
    } else if (!started) {
      throw new InvalidStateError('unknown_state');
    }

    // An autologin stop's code is bound to this callback URL and has no PKCE challenge: Sesame
    // exchanges it only as a walk's code (autologin=true), and nothing else that way. The domain
    // that started the login exchanges with the redirect_uri and verifier it kept.
    const own = autologin ? undefined : started;
    const redirectUri = own?.redirectUri ?? withoutCallbackParameters(url);
    const tokens = await this.api.exchangeCode(
      { code, redirectUri, verifier: own?.verifier },
      { autologin: autologin ? 'true' : undefined },
    );
    const user = await this.api.user(tokens.access_token);
    if (!user) throw new SesameError('invalid_token', 'Sesame did not accept the access token it just issued');

    appendSetCookie(res, this.cookie(this.sessionCookie, tokens.access_token, tokens.expires_in));
    if (own)
      this.writeLoginCookie(
        res,
        pending.filter((login) => login !== own),
      );

    const context: CallbackContext = {
      state,
      autologin,
      continueUrl,
      returnTo: autologin ? null : (own?.returnTo ?? new URL('/', url.origin).href),
    };
    const replacement = await hooks.onAfterCallback?.(req, res, user, context);
    if (replacement) send(res, replacement);
    else if (!res.writableEnded)
      send(res, {
        status: 303,
        headers: { Location: continueUrl ?? context.returnTo!, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' },
      });
    return { user, state, autologin, expiresAt: new Date(tokens.expires_at) };
  }

  /** The signed-in user of a request (from its session cookie, through /v1/userinfo), or null. */
  async getUser(req: RequestLike): Promise<SesameUser | null> {
    const token = this.getAccessToken(req);
    return token ? this.api.user(token) : null;
  }

  /** The access token in the request's session cookie, for apps that call Sesame themselves. */
  getAccessToken(req: RequestLike): string | null {
    return parseCookies(req.headers.cookie).get(this.sessionCookie) || null;
  }

  /**
   * Signs the user out: clears the session cookie, then revokes the access token at Sesame
   * (POST /v1/revoke). Resolves with whether there was a token to revoke; throws if Sesame could
   * not revoke it (the cookie is cleared all the same).
   */
  async logout(req: RequestLike, res: ResponseLike): Promise<{ revoked: boolean }> {
    const token = this.getAccessToken(req);
    appendSetCookie(res, this.cookie(this.sessionCookie, '', 0));
    if (!token) return { revoked: false };
    await this.api.revoke(token);
    return { revoked: true };
  }

  /**
   * Express middleware that sets `req.user` (and `res.locals.user`) to the signed-in user or null,
   * and clears a session cookie whose token Sesame no longer accepts.
   */
  middleware<Req extends RequestLike, Res extends ResponseLike>(
    options: { property?: string } = {},
  ): (req: Req, res: Res, next: Next) => void {
    const property = options.property ?? 'user';
    return (req, res, next) => {
      const token = this.getAccessToken(req);
      const lookup = token ? this.api.user(token) : Promise.resolve(null);
      lookup.then(
        (user) => {
          if (token && !user) appendSetCookie(res, this.cookie(this.sessionCookie, '', 0));
          (req as unknown as Record<string, unknown>)[property] = user;
          const locals = (res as unknown as { locals?: Record<string, unknown> }).locals;
          if (locals && typeof locals === 'object') locals[property] = user;
          next();
        },
        (error: unknown) => next(error),
      );
    };
  }

  /** An Express route handler for the callback: `app.get('/callback', sesame.callbackHandler(hooks))`. Errors go to next(). */
  callbackHandler<Req extends RequestLike, Res extends ResponseLike>(
    hooks: CallbackHooks<Req, Res> = {},
  ): (req: Req, res: Res, next: Next) => void {
    return (req, res, next) => {
      this.callback(req, res, hooks).then(
        () => undefined,
        (error: unknown) => next(error),
      );
    };
  }

  /** True when `state` is a state this application signed, recent enough for an autologin stop: for onStateReceived hooks that add their own checks. */
  verifyState(state: string): boolean {
    return verifySignedState(this.options.clientSecret, state, this.stateMaxAge);
  }

  /** The page's origin: given, or the current request's (the page's own fetch to the app). */
  private pageOrigin(req: RequestLike, origin: string | undefined): string {
    return origin ?? currentUrl(req, this.trustProxy).origin;
  }

  private requireAccessToken(req: RequestLike): string {
    const token = this.getAccessToken(req);
    if (!token) throw new SesameError('invalid_token', 'Not signed in: a passkey is created right after signing in');
    return token;
  }

  private pendingAttempt(req: RequestLike, loginAttemptId: string): { pending: PendingLogin[]; login: PendingLogin } {
    const pending = this.pendingLogins(req);
    const login =
      typeof loginAttemptId === 'string' && loginAttemptId !== ''
        ? pending.find((candidate) => candidate.loginAttemptId === loginAttemptId)
        : undefined;
    if (!login) throw new InvalidStateError('unknown_state');
    return { pending, login };
  }

  /** Exchanges a code of a login this browser started (code typed, or approval collected), sets the session and forgets the login. */
  private async completeLogin(
    res: ResponseLike,
    pending: PendingLogin[],
    login: PendingLogin,
    code: string,
    state: string,
  ): Promise<CompletedLogin> {
    if (state !== login.state) throw new InvalidStateError('unknown_state');
    const tokens = await this.api.exchangeCode({ code, redirectUri: login.redirectUri, verifier: login.verifier });
    const user = await this.api.user(tokens.access_token);
    if (!user) throw new SesameError('invalid_token', 'Sesame did not accept the access token it just issued');
    appendSetCookie(res, this.cookie(this.sessionCookie, tokens.access_token, tokens.expires_in));
    this.writeLoginCookie(
      res,
      pending.filter((candidate) => candidate !== login),
    );
    return { user, returnTo: login.returnTo, expiresAt: new Date(tokens.expires_at) };
  }

  /** The continuation of an autologin walk, only if it is Sesame's own /v1/autologin (never an open redirect). */
  private checkedContinueUrl(value: string): string {
    const expected = `${this.baseUrl}/v1/autologin`;
    let url: URL | null;
    try {
      url = new URL(value);
    } catch {
      url = null;
    }
    if (!url || !value.startsWith(expected) || `${url.origin}${url.pathname}` !== expected || url.username || url.password) {
      throw new SesameError('invalid_request', `autologin_continue must start with ${expected}`);
    }
    return url.href;
  }

  private pendingLogins(req: RequestLike): PendingLogin[] {
    return decodeLoginCookie(this.options.clientSecret, parseCookies(req.headers.cookie).get(this.loginCookie), this.loginTimeout);
  }

  private writeLoginCookie(res: ResponseLike, logins: PendingLogin[]): void {
    appendSetCookie(
      res,
      logins.length === 0
        ? this.cookie(this.loginCookie, '', 0)
        : this.cookie(this.loginCookie, encodeLoginCookie(this.options.clientSecret, logins), this.loginTimeout),
    );
  }

  private cookie(name: string, value: string, maxAge: number): string {
    return serializeCookie(name, value, { maxAge, path: this.cookiePath, domain: this.cookieDomain });
  }
}

/** The end user's User-Agent, passed on so a person approving from another device sees browser and system. */
function userAgentOf(req: RequestLike): { userAgent?: string } {
  const header = req.headers['user-agent'];
  const value = Array.isArray(header) ? header[0] : header;
  return typeof value === 'string' && value !== '' ? { userAgent: value.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 512) } : {};
}

/** The end user's IP address, passed on so a person approving from another device sees where the request came from. */
function userIpOf(req: RequestLike, trustProxy: boolean): { userIp?: string } {
  const address = clientAddress(req, trustProxy);
  return address ? { userIp: address } : {};
}

/** The challenge a WebAuthn answer's clientDataJSON names (to find the login it answers), or null. */
function challengeOfAnswer(response: unknown): string | null {
  const clientDataJSON = (response as { response?: { clientDataJSON?: unknown } } | null)?.response?.clientDataJSON;
  if (typeof clientDataJSON !== 'string' || clientDataJSON.length > 4096) return null;
  try {
    const challenge = (JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown }).challenge;
    return typeof challenge === 'string' && challenge !== '' ? challenge : null;
  } catch {
    return null;
  }
}

/** The S256 challenge of a PKCE verifier. */
function pkceChallengeOf(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** Creates a client; see SesameClientOptions. */
export function createSesameClient(options: SesameClientOptions): SesameClient {
  return new SesameClient(options);
}

function normalizeBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`baseUrl must be an absolute URL, e.g. https://auth.example.com/api: ${value}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError('baseUrl must be an http(s) URL');
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}

function send(res: ResponseLike, response: ReplacementResponse): void {
  res.statusCode = response.status ?? 200;
  for (const [name, value] of Object.entries(response.headers ?? {})) {
    if (name.toLowerCase() === 'set-cookie')
      for (const cookie of Array.isArray(value) ? value : [String(value)]) appendSetCookie(res, cookie);
    else res.setHeader(name, value as string | number | readonly string[]);
  }
  res.end(response.body ?? '');
}
