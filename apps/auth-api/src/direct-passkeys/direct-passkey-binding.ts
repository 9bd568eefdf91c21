import { createHash } from 'node:crypto';

/** The login a direct sign-in's challenge is for: the application's request, as authenticate_direct takes one. */
export interface DirectSignInRequest {
  applicationId: string;
  origin: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  nonce: string | null;
}

/**
 * What a direct sign-in challenge is bound to: the application, the page's origin and the login
 * (redirect_uri, state, PKCE challenge, nonce), so it answers nothing else: not another
 * application's or page's request, not another login of the same application.
 */
export function directSignInBinding(request: DirectSignInRequest): Buffer {
  return digest([
    'direct-sign-in',
    request.applicationId,
    request.origin,
    request.redirectUri,
    request.state,
    request.codeChallenge,
    request.nonce ?? '',
  ]);
}

/** What a direct registration's challenge is bound to (besides its access token): the application and the page's origin. */
export function directRegistrationBinding(applicationId: string, origin: string): Buffer {
  return digest(['direct-registration', applicationId, origin]);
}

function digest(parts: string[]): Buffer {
  // JSON keeps the parts apart: no two lists of strings give the same text.
  return createHash('sha256').update(JSON.stringify(parts)).digest();
}
