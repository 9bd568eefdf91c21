import {
  createPkcePair,
  CryptoProvider,
  DEFAULT_RETRY,
  FetchFunction,
  formEncode,
  globalFetch,
  randomToken,
  RetryOptions,
  SesameApi,
  SesameHttp,
  SesameUser,
  webCrypto,
} from '@sesame/client-core';
import { queryOf, withoutQuery } from './encoding';
import { InvalidStateError, ProviderError, SesameError } from './errors';
import { SecureStorage } from './storage';

export type { SesameUser };

/** The stored session. */
export interface Session {
  accessToken: string;
  expiresAt: Date;
}

export interface LoginOptions {
  /** Pre-fills the e-mail field of the hosted login page. */
  loginHint?: string;
  /** Language of the hosted page and e-mail, e.g. `de` (default: the browser's). */
  uiLocales?: string;
}

/**
 * Opens the hosted login page and resolves with the URL the app is sent back to (its redirect_uri
 * with code and state), or null when the user cancelled. For example with expo-web-browser:
 * `(url, redirectUri) => WebBrowser.openAuthSessionAsync(url, redirectUri).then((r) => (r.type === 'success' ? r.url : null))`.
 */
export type OpenAuthSession = (authorizeUrl: string, redirectUri: string) => Promise<string | null>;

export interface SesameNativeClientOptions {
  /** Sesame's public base URL with its API prefix, e.g. `https://auth.example.com/api`. */
  baseUrl: string;
  /** The native application's client id (native apps have no secret: PKCE proves the login). */
  clientId: string;
  /** A callback URL registered for the application, e.g. `com.example.notes:/callback`. */
  redirectUri: string;
  storage: SecureStorage;
  /** Needed by login(); apps that handle the redirect with their own deep-link listener use startLogin() and handleRedirect(). */
  openAuthSession?: OpenAuthSession;
  /** Prefix of the storage keys (default `sesame`): `<prefix>.session` and `<prefix>.pending`. */
  storageKeyPrefix?: string;
  /** Seconds a started login stays usable (default 3600). */
  loginTimeoutSeconds?: number;
  fetch?: FetchFunction;
  /** Random bytes and SHA-256 (default: globalThis.crypto). */
  crypto?: Partial<CryptoProvider>;
  /** Retries of what Sesame did nothing with: 429, 503 with Retry-After, a GET after a network error (exponential backoff from baseDelayMs with jitter, at least Retry-After, at most maxDelayMs). */
  retry?: Partial<RetryOptions>;
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds a request to Sesame may take before it fails with SesameError `timeout` (default 30000). */
  timeoutMs?: number;
}

interface PendingLogin {
  state: string;
  verifier: string;
  createdAt: number;
}

const MAX_PENDING = 3;

/**
 * Sesame for React Native (and other native or browser-less JavaScript apps): the hosted login
 * page with PKCE and no client secret, the access token kept in secure storage and handed to the
 * app for its own backend, the user, and logout.
 */
export class SesameNativeClient {
  private readonly baseUrl: string;
  private readonly api: SesameApi;
  private readonly crypto: CryptoProvider;
  private readonly sessionKey: string;
  private readonly pendingKey: string;
  private readonly loginTimeout: number;

  constructor(private readonly options: SesameNativeClientOptions) {
    if (!/^https?:\/\/[^/?#]+/.test(options.baseUrl))
      throw new TypeError('baseUrl must be an absolute http(s) URL, e.g. https://auth.example.com/api');
    if (!options.clientId) throw new TypeError('clientId is required');
    if (!options.redirectUri || options.redirectUri.includes('?') || options.redirectUri.includes('#'))
      throw new TypeError('redirectUri must be a registered callback URL without query or fragment');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const fetch = options.fetch ?? globalFetch();
    if (!fetch) throw new TypeError('No fetch in this environment: pass options.fetch');
    const http = new SesameHttp({
      baseUrl: this.baseUrl,
      fetch,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      sleep: options.sleep,
      timeoutMs: options.timeoutMs,
    });
    this.api = new SesameApi(http, { headers: {}, form: { client_id: options.clientId } });
    const defaults = webCrypto();
    this.crypto = {
      getRandomValues: options.crypto?.getRandomValues ?? defaults.getRandomValues,
      sha256: options.crypto?.sha256 ?? defaults.sha256,
    };
    const prefix = options.storageKeyPrefix ?? 'sesame';
    this.sessionKey = `${prefix}.session`;
    this.pendingKey = `${prefix}.pending`;
    this.loginTimeout = options.loginTimeoutSeconds ?? 3600;
  }

  /**
   * The whole login: opens the hosted login page through openAuthSession, then handles the
   * redirect. Resolves with the user (the access token is stored); throws SesameError `cancelled`
   * when the user closed the page.
   */
  async login(options: LoginOptions = {}): Promise<SesameUser> {
    if (!this.options.openAuthSession)
      throw new TypeError('login() needs options.openAuthSession; or use startLogin() and handleRedirect()');
    const url = await this.startLogin(options);
    const redirected = await this.options.openAuthSession(url, this.options.redirectUri);
    if (!redirected) throw new SesameError('cancelled', 'The login was cancelled');
    return this.handleRedirect(redirected);
  }

  /**
   * Starts a login: makes a random state and a PKCE pair, stores them, and returns the hosted login
   * page's URL for the app to open in the browser.
   */
  async startLogin(options: LoginOptions = {}): Promise<string> {
    const state = randomToken(this.crypto);
    const { verifier, challenge } = await createPkcePair(this.crypto);
    const pending = (await this.pendingLogins()).slice(0, MAX_PENDING - 1);
    await this.options.storage.setItem(this.pendingKey, JSON.stringify([{ state, verifier, createdAt: nowSeconds() }, ...pending]));
    return `${this.baseUrl}/v1/authorize?${formEncode({
      response_type: 'code',
      client_id: this.options.clientId,
      redirect_uri: this.options.redirectUri,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      login_hint: options.loginHint,
      ui_locales: options.uiLocales,
    })}`;
  }

  /** True when `url` is a redirect to this client's redirectUri (for a deep-link listener). */
  isRedirect(url: string): boolean {
    return withoutQuery(url) === this.options.redirectUri;
  }

  /**
   * Completes a login from the URL the app was opened with: checks that its state belongs to a login
   * this app started, exchanges the code with the PKCE verifier (no secret), stores the access token
   * and returns the user. Throws ProviderError for an error redirect, InvalidStateError for a state
   * this app did not start.
   */
  async handleRedirect(url: string): Promise<SesameUser> {
    if (!this.isRedirect(url)) throw new SesameError('invalid_request', `Not a redirect to ${this.options.redirectUri}`);
    const query = queryOf(url);
    const pending = await this.pendingLogins();
    const started = query.state === undefined ? undefined : pending.find((login) => login.state === query.state);
    if (started) await this.savePending(pending.filter((login) => login !== started));

    if (query.error !== undefined) throw new ProviderError(query.error, query.error_description ?? null);
    if (!query.state) throw new InvalidStateError('missing_state');
    if (!started) throw new InvalidStateError('unknown_state');
    if (!query.code) throw new SesameError('invalid_request', 'The redirect has neither code nor error');

    const tokens = await this.api.exchangeCode({ code: query.code, redirectUri: this.options.redirectUri, verifier: started.verifier });
    const session: Session = { accessToken: tokens.access_token, expiresAt: new Date(tokens.expires_at) };
    await this.options.storage.setItem(this.sessionKey, JSON.stringify({ accessToken: session.accessToken, expiresAt: tokens.expires_at }));
    const user = await this.getUser();
    if (!user) throw new SesameError('invalid_token', 'Sesame did not accept the access token it just issued');
    return user;
  }

  /** The stored access token, or null when signed out or expired: send it to your backend as `Authorization: Bearer <token>`. */
  async getAccessToken(): Promise<string | null> {
    return (await this.getSession())?.accessToken ?? null;
  }

  /** `{ Authorization: 'Bearer …' }` when signed in, `{}` otherwise: spread it into a fetch's headers. */
  async getAuthorizationHeader(): Promise<Record<string, string>> {
    const token = await this.getAccessToken();
    return token ? { Authorization: `Bearer ${token}` } : {};
  }

  /** The stored session, or null (an expired one is removed). */
  async getSession(): Promise<Session | null> {
    const raw = await this.options.storage.getItem(this.sessionKey);
    if (!raw) return null;
    let stored: { accessToken?: unknown; expiresAt?: unknown };
    try {
      stored = JSON.parse(raw);
    } catch {
      stored = {};
    }
    const expiresAt = typeof stored.expiresAt === 'string' ? new Date(stored.expiresAt) : null;
    if (typeof stored.accessToken !== 'string' || !expiresAt || Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= Date.now()) {
      await this.options.storage.removeItem(this.sessionKey);
      return null;
    }
    return { accessToken: stored.accessToken, expiresAt };
  }

  /** The signed-in user (GET /v1/userinfo), or null; a token Sesame no longer accepts is removed. */
  async getUser(): Promise<SesameUser | null> {
    const token = await this.getAccessToken();
    if (!token) return null;
    const user = await this.api.user(token);
    if (!user) await this.options.storage.removeItem(this.sessionKey);
    return user;
  }

  /** Signs out: removes the stored token, then revokes it at Sesame. Throws if Sesame could not revoke it (the token is removed all the same). */
  async logout(): Promise<{ revoked: boolean }> {
    const token = await this.getAccessToken();
    await this.options.storage.removeItem(this.sessionKey);
    if (!token) return { revoked: false };
    await this.api.revoke(token);
    return { revoked: true };
  }

  private async pendingLogins(): Promise<PendingLogin[]> {
    const raw = await this.options.storage.getItem(this.pendingKey);
    if (!raw) return [];
    try {
      const parsed: unknown = JSON.parse(raw);
      const now = nowSeconds();
      return Array.isArray(parsed)
        ? parsed.filter(
            (login): login is PendingLogin =>
              typeof login?.state === 'string' &&
              typeof login?.verifier === 'string' &&
              typeof login?.createdAt === 'number' &&
              now - login.createdAt <= this.loginTimeout,
          )
        : [];
    } catch {
      return [];
    }
  }

  private async savePending(logins: PendingLogin[]): Promise<void> {
    if (logins.length === 0) await this.options.storage.removeItem(this.pendingKey);
    else await this.options.storage.setItem(this.pendingKey, JSON.stringify(logins));
  }
}

/** Creates a client; see SesameNativeClientOptions. */
export function createSesameNativeClient(options: SesameNativeClientOptions): SesameNativeClient {
  return new SesameNativeClient(options);
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
