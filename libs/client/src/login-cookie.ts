import { Buffer } from 'node:buffer';
import { createHmac } from 'node:crypto';
import { safeEqual } from './state';

/** A login started in this browser and not finished yet. */
export interface PendingLogin {
  /** The state sent to Sesame. */
  state: string;
  /** The PKCE code verifier. */
  verifier: string;
  /** The redirect_uri sent to Sesame: the code must be exchanged with exactly this string. */
  redirectUri: string;
  /** Where the user goes once signed in. */
  returnTo: string;
  /** Seconds since the epoch. */
  createdAt: number;
  /** The login attempt (direct authentication): the code typed in this browser, or an approval from another device, completes it. */
  loginAttemptId?: string;
  /** The challenge of a passkey sign-in's options (direct authentication): the browser's answer names it, and finds this login. */
  passkeyChallenge?: string;
}

/** Logins kept at most: a user who asks for a second link can still use the first. */
export const MAX_PENDING_LOGINS = 3;

/**
 * What the cookie keeps of `logins` (newest first): at most MAX_PENDING_LOGINS, the oldest passkey
 * sign-ins giving way before any e-mailed login — pressing "Sign in with a passkey" a few times must
 * not cost the person the link they are waiting for.
 */
export function keptLogins(logins: PendingLogin[]): PendingLogin[] {
  const kept = [...logins];
  while (kept.length > MAX_PENDING_LOGINS) {
    const oldestPasskey = kept.findLastIndex((login, index) => index > 0 && login.passkeyChallenge !== undefined);
    kept.splice(oldestPasskey > 0 ? oldestPasskey : kept.length - 1, 1);
  }
  return kept;
}

type Stored = [
  state: string,
  verifier: string,
  redirectUri: string,
  returnTo: string,
  createdAt: number,
  loginAttemptId?: string,
  passkeyChallenge?: string,
];

/**
 * The value of the login cookie: the pending logins as base64url JSON, and an HMAC of it keyed with
 * the client secret, so that a cookie the application did not write (for instance one planted
 * with another return address) is ignored.
 */
export function encodeLoginCookie(secret: string, logins: PendingLogin[]): string {
  const stored: Stored[] = logins.map((login) =>
    login.passkeyChallenge
      ? [
          login.state,
          login.verifier,
          login.redirectUri,
          login.returnTo,
          login.createdAt,
          login.loginAttemptId ?? '',
          login.passkeyChallenge,
        ]
      : login.loginAttemptId
        ? [login.state, login.verifier, login.redirectUri, login.returnTo, login.createdAt, login.loginAttemptId]
        : [login.state, login.verifier, login.redirectUri, login.returnTo, login.createdAt],
  );
  const payload = Buffer.from(JSON.stringify(stored)).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

/** The pending logins of a cookie value; none for a missing, malformed or forged one, and none older than `maxAgeSeconds`. */
export function decodeLoginCookie(
  secret: string,
  value: string | undefined,
  maxAgeSeconds: number,
  now: number = Date.now(),
): PendingLogin[] {
  if (!value) return [];
  const dot = value.lastIndexOf('.');
  if (dot < 0) return [];
  const payload = value.slice(0, dot);
  if (!safeEqual(value.slice(dot + 1), sign(secret, payload))) return [];
  let stored: unknown;
  try {
    stored = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(stored)) return [];
  const nowSeconds = Math.floor(now / 1000);
  return stored
    .filter(isStored)
    .map(([state, verifier, redirectUri, returnTo, createdAt, loginAttemptId, passkeyChallenge]) => ({
      state,
      verifier,
      redirectUri,
      returnTo,
      createdAt,
      ...(loginAttemptId ? { loginAttemptId } : {}),
      ...(passkeyChallenge ? { passkeyChallenge } : {}),
    }))
    .filter((login) => nowSeconds - login.createdAt <= maxAgeSeconds);
}

/** Five entries (cookies written before login attempts were kept), six with the attempt's id, seven with a passkey sign-in's challenge. */
function isStored(entry: unknown): entry is Stored {
  if (!Array.isArray(entry) || entry.length < 5 || entry.length > 7) return false;
  return (
    entry.slice(0, 4).every((part) => typeof part === 'string') &&
    typeof entry[4] === 'number' &&
    entry.slice(5).every((part) => typeof part === 'string')
  );
}

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(`sesame-login-cookie:${payload}`).digest('base64url');
}
