import { allowedRedirect, problem, withQuery } from '@sesame/common';
import { ClientContext } from '@sesame/entities';
import { PageRedirect } from '../pages/page-outcomes';

/** The parameters of a hosted login request that passed every check. */
export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  nonce: string | null;
  uiLocales: string | undefined;
  loginHint: string | undefined;
}

const CHALLENGE_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** At most 512 characters, printable (the id_token carries it back). */
const NONCE_SHAPE = /^[^\u0000-\u001f\u007f]{1,512}$/;
/** At most 1024 characters, printable: it is stored with the attempt and sent back in the redirect. */
const STATE_SHAPE = /^[^\u0000-\u001f\u007f]{1,1024}$/;

/**
 * Checks a hosted login request in the order RFC 6749 §4.1.2.1 asks: an unknown client or an
 * unacceptable redirect_uri is shown as an error page and never redirected to; every later
 * problem goes back to the application as `error`, `error_description` and `state`.
 */
export function checkAuthorizeRequest(params: Record<string, unknown>, context: ClientContext): AuthorizeRequest {
  const read = (name: string) => (typeof params[name] === 'string' ? (params[name] as string) : undefined);
  const redirectUri = read('redirect_uri') ?? '';
  const target = allowedRedirect({ ...context.application, whitelistDomains: context.organization.whitelistDomains }, redirectUri);
  if (!target) throw problem('invalid_redirect_uri', 'redirect_uri is not registered for this application');

  const state = read('state');
  const fail = (error: string, description: string) =>
    new PageRedirect(withQuery(target, { error, error_description: description, ...(state ? { state } : {}) }), 302);
  if (read('response_type') !== 'code') throw fail('unsupported_response_type', 'response_type must be code');
  if (!state || !STATE_SHAPE.test(state)) throw fail('invalid_request', 'state is required (at most 1024 printable characters)');

  const challenge = read('code_challenge');
  const method = read('code_challenge_method');
  if (challenge !== undefined && !CHALLENGE_SHAPE.test(challenge))
    throw fail('invalid_request', 'code_challenge must be a base64url SHA-256 digest');
  // Every application type (RFC 9700 §2.1.1): anyone who knows a client_id can start a login here,
  // so a code without PKCE could be injected into another browser's callback.
  if (challenge === undefined) throw fail('invalid_request', 'code_challenge is required (PKCE with S256)');
  if (method !== 'S256') throw fail('invalid_request', 'code_challenge_method must be S256');
  const nonce = read('nonce');
  if (nonce !== undefined && !NONCE_SHAPE.test(nonce)) throw fail('invalid_request', 'nonce must be 1 to 512 printable characters');

  return {
    clientId: context.application.clientId,
    redirectUri,
    state,
    codeChallenge: challenge,
    nonce: nonce ?? null,
    uiLocales: read('ui_locales'),
    loginHint: read('login_hint'),
  };
}

/** The request's parameters, carried through the form as hidden fields. */
export function hiddenParameters(request: AuthorizeRequest): Record<string, string> {
  return {
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    state: request.state,
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    ...(request.nonce ? { nonce: request.nonce } : {}),
    ...(request.uiLocales ? { ui_locales: request.uiLocales } : {}),
  };
}
