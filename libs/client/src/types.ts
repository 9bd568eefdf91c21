import type { SesameUser } from '@sesame/client-core';
import { RequestLike, ResponseLike } from './cookies';

export type { SesameUser };

/** Strings of the login e-mail; `{organization}` and `{minutes}` are replaced by Sesame. Plain text, one line each. */
export interface EmailTranslations {
  subject?: string;
  greeting?: string;
  intro?: string;
  button?: string;
  expiry?: string;
  ignore?: string;
}

export interface AuthenticateDirectConfig {
  /** The address to e-mail the login link to. */
  email: string;
  /**
   * Where the user lands once signed in. Unset: the request's `return_to` query parameter, then the
   * Referer, then the origin of the current request URL. It must be on the host of the current
   * request, and its origin must be a whitelist domain of the organization (Sesame checks this).
   */
  returnTo?: string;
  /** The state to send (default: a random state signed with the client secret; see docs/autologin.md). */
  state?: string;
  translations?: EmailTranslations;
}

/** The login attempt Sesame created: show the sentence, and do not start another one for this address before allowedDate. */
export interface LoginAttempt {
  loginAttemptId: string;
  /** SHA-256 of the link token (never the link token itself). */
  token: string;
  /** A sentence unique to the attempt, shown again in the e-mail and on the page its link opens: display it so the user can recognise their e-mail. */
  sentence: string;
  /**
   * Two digits to show large on the waiting screen, and nowhere else: a person who opens the link on
   * another device (their phone) types it there, which signs this browser in (loginStatus collects it).
   * Keep it with the waiting screen; Sesame answers it only here.
   */
  approvalNumber: string;
  /** The date from which the next login for this address is allowed. */
  allowedDate: Date;
  state: string;
  /** The callback URL sent to Sesame as redirect_uri. */
  redirectUri: string;
  /** Where the user lands after the callback. */
  returnTo: string;
}

/** What the hooks learn about the callback being handled. */
export interface CallbackContext {
  state: string;
  /**
   * True on a stop of an autologin walk: a domain of the application that did not start the login.
   * The library then sends the browser on to `continueUrl` unless onAfterCallback returns a replacement.
   */
  autologin: boolean;
  /** The autologin continuation (on Sesame), when autologin is true. */
  continueUrl: string | null;
  /** Where the user goes next when the login started here; null on an autologin stop. */
  returnTo: string | null;
}

/**
 * A response for the library to send instead of its default redirect: a status (default 200),
 * headers and a body. `redirectResponse(url)` makes a redirect.
 */
export interface ReplacementResponse {
  status?: number;
  headers?: Record<string, string | number | readonly string[]>;
  body?: string;
}

export interface CallbackHooks<Req extends RequestLike = RequestLike, Res extends ResponseLike = ResponseLike> {
  /**
   * Called with the state of every callback, on every domain (autologin included): return true to
   * continue or false to abort with an InvalidStateError. It replaces the library's own check
   * (the login cookie on the domain that started the login, the signature on the others).
   */
  onStateReceived?(req: Req, state: string): boolean | Promise<boolean>;
  /**
   * Called once the user is signed in (the session cookie is set). Return a ReplacementResponse to
   * answer with it instead of the default redirect, or write to `res` yourself.
   */
  onAfterCallback?(
    req: Req,
    res: Res,
    user: SesameUser,
    context: CallbackContext,
  ): ReplacementResponse | void | Promise<ReplacementResponse | void>;
}

export interface CallbackResult {
  user: SesameUser;
  state: string;
  /** True on an autologin stop (see CallbackContext). */
  autologin: boolean;
  /** When the access token (and the session cookie) expires. */
  expiresAt: Date;
}

/** A redirect for onAfterCallback to return (303 See Other by default). */
export function redirectResponse(location: string, status = 303): ReplacementResponse {
  return { status, headers: { Location: location, 'Cache-Control': 'no-store' } };
}

/** A login completed in this browser by a code or an approval from another device. */
export interface CompletedLogin {
  user: SesameUser;
  /** Where the user wanted to go. */
  returnTo: string;
  expiresAt: Date;
}

/** What loginStatus found: `completed` with the user when this call completed the login. */
export interface LoginStatus {
  status: 'pending' | 'completed' | 'expired' | 'locked';
  user?: SesameUser;
  returnTo?: string;
  expiresAt?: Date;
}

/** Where a passkey sign-in goes once signed in, and on which page the ceremony runs. */
export interface PasskeySignInConfig {
  /** Where the user lands once signed in: as AuthenticateDirectConfig.returnTo (same fallbacks, same host). */
  returnTo?: string;
  /** The state to send (default: a random state signed with the client secret). */
  state?: string;
  /**
   * The origin of the page that runs the ceremony (default: the origin of the current request, the
   * page's own fetch to the app). One of the organization's whitelist domains; its host is the RP ID.
   */
  origin?: string;
}

/**
 * WebAuthn request options as JSON (PublicKeyCredentialRequestOptionsJSON): hand them to the page,
 * which passes them to `startAuthentication({ optionsJSON })` of @simplewebauthn/browser.
 */
export interface PasskeySignInOptions {
  challenge: string;
  rpId?: string;
  timeout?: number;
  userVerification?: string;
  allowCredentials?: unknown[];
  [member: string]: unknown;
}

/**
 * WebAuthn creation options as JSON (PublicKeyCredentialCreationOptionsJSON): hand them to the
 * page, which passes them to `startRegistration({ optionsJSON })` of @simplewebauthn/browser.
 */
export interface PasskeyRegistrationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
  [member: string]: unknown;
}

/** One of the signed-in user's passkeys, as they manage it. */
export interface UserPasskey {
  id: string;
  name: string;
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  /** The host of the application page it was made on (it signs in only there); null: the hosted login page. */
  rpId: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A passkey just registered: its id (as the passkey.registered event and the management API name it) and name. */
export interface RegisteredPasskey {
  passkeyId: string;
  name: string;
}
