import { createHash } from 'node:crypto';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { AuthorizeRequest } from './authorize-request';

/**
 * What a sign-in challenge is bound to: this browser's CSRF cookie (a secret only it holds) and the
 * authorize request it was asked for, so it answers nothing else: not another request (another
 * state, redirect_uri or PKCE challenge), not another browser.
 */
export function signInBinding(csrfCookie: string, request: AuthorizeRequest): Buffer {
  return digest(['sign-in', csrfCookie, request.clientId, request.redirectUri, request.state, request.codeChallenge, request.nonce ?? '']);
}

/** What a registration grant is bound to: the browser that asked for the e-mailed login (its attempt cookie) and its CSRF cookie. */
export function registrationBinding(attemptCookie: string, csrfCookie: string): Buffer {
  return digest(['registration', attemptCookie, csrfCookie]);
}

function digest(parts: string[]): Buffer {
  // JSON keeps the parts apart: no two lists of strings give the same text.
  return createHash('sha256').update(JSON.stringify(parts)).digest();
}

/**
 * The challenge a ceremony's clientDataJSON names (base64url), or null when it is not readable.
 * Only to find the stored challenge: the library then checks clientDataJSON in full against it.
 */
export function challengeOfClientData(clientDataJSON: unknown): string | null {
  if (typeof clientDataJSON !== 'string' || clientDataJSON.length > 4096 || !isoBase64URL.isBase64URL(clientDataJSON)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = typeof parsed === 'object' && parsed !== null ? (parsed as { challenge?: unknown }).challenge : undefined;
    return typeof challenge === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(challenge) ? challenge : null;
  } catch {
    return null;
  }
}
