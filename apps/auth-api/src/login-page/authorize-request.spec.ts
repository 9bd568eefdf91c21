import { ProblemException } from '@sesame/common';
import { ClientContext } from '@sesame/entities';
import { PageRedirect } from '../pages/page-outcomes';
import { checkAuthorizeRequest, hiddenParameters } from './authorize-request';

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

function context(type: ClientContext['application']['type'], callbackUrls: string[], whitelistDomains: string[] = []): ClientContext {
  return {
    application: { id: 'app-id', name: 'App', type, clientId: 'client-1', callbackUrls },
    organization: { id: 'org-id', name: 'Org', whitelistDomains, autologin: false, linkTtlSeconds: 600, passkeys: 'offered' },
    tenant: { id: 'tenant-id', plan: 'free' },
  };
}

const web = context('web', [], ['https://app.example.com']);
const desktop = context('desktop', ['http://127.0.0.1/callback']);
const android = context('android', ['com.example.app:/cb']);

function outcome(
  params: Record<string, unknown>,
  client: ClientContext,
): { page: string } | { redirect: URL } | { ok: ReturnType<typeof checkAuthorizeRequest> } {
  try {
    return { ok: checkAuthorizeRequest(params, client) };
  } catch (error) {
    if (error instanceof PageRedirect) return { redirect: new URL(error.url) };
    if (error instanceof ProblemException) return { page: error.code };
    throw error;
  }
}

describe('checkAuthorizeRequest', () => {
  const valid = {
    response_type: 'code',
    client_id: 'client-1',
    redirect_uri: 'http://127.0.0.1:5555/callback',
    state: 's',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
  };

  it('accepts a complete native request and returns what the form carries', () => {
    expect(outcome(valid, desktop)).toEqual({
      ok: {
        clientId: 'client-1',
        redirectUri: valid.redirect_uri,
        state: 's',
        codeChallenge: CHALLENGE,
        nonce: null,
        uiLocales: undefined,
        loginHint: undefined,
      },
    });
  });

  it('checks redirect_uri before anything else: an error page, never a redirect', () => {
    expect(
      outcome({ ...valid, response_type: 'token', state: undefined, redirect_uri: 'http://localhost:5555/callback' }, desktop),
    ).toEqual({ page: 'invalid_redirect_uri' });
    expect(outcome({ ...valid, redirect_uri: ['http://127.0.0.1:5555/callback'] }, desktop)).toEqual({ page: 'invalid_redirect_uri' });
  });

  it.each([
    ['unsupported_response_type', { response_type: 'token' }, 's'],
    ['unsupported_response_type', { response_type: undefined }, 's'],
    ['invalid_request', { state: undefined }, null],
    ['invalid_request', { state: '' }, null],
    ['invalid_request', { state: 'x'.repeat(1025) }, 'x'.repeat(1025)],
    ['invalid_request', { code_challenge: undefined, code_challenge_method: undefined }, 's'],
    ['invalid_request', { code_challenge_method: 'plain' }, 's'],
    ['invalid_request', { code_challenge_method: undefined }, 's'],
    ['invalid_request', { code_challenge: `${CHALLENGE}=` }, 's'],
    ['invalid_request', { nonce: '' }, 's'],
    ['invalid_request', { nonce: 'x'.repeat(513) }, 's'],
    ['invalid_request', { nonce: 'a\nb' }, 's'],
  ])('redirects %s for %j', (error, change, state) => {
    const result = outcome({ ...valid, ...change }, desktop);
    expect(result).toHaveProperty('redirect');
    const url = (result as { redirect: URL }).redirect;
    expect(`${url.origin}${url.pathname}`).toBe('http://127.0.0.1:5555/callback');
    expect(url.searchParams.get('error')).toBe(error);
    expect(url.searchParams.get('state')).toBe(state);
  });

  it('redirects errors to a custom scheme too', () => {
    const result = outcome({ ...valid, redirect_uri: 'com.example.app:/cb', response_type: 'token' }, android) as { redirect: URL };
    expect(result.redirect.href).toMatch(/^com\.example\.app:\/cb\?error=unsupported_response_type&/);
  });

  it('requires PKCE of web apps too (RFC 9700 §2.1.1)', () => {
    const request = { response_type: 'code', client_id: 'client-1', redirect_uri: 'https://app.example.com/cb', state: 's' };
    const refused = outcome(request, web) as { redirect: URL };
    expect([refused.redirect.searchParams.get('error'), refused.redirect.searchParams.get('error_description')]).toEqual([
      'invalid_request',
      'code_challenge is required (PKCE with S256)',
    ]);
    expect(outcome({ ...request, code_challenge: CHALLENGE, code_challenge_method: 'S256' }, web)).toHaveProperty(
      'ok.codeChallenge',
      CHALLENGE,
    );
    expect(outcome({ ...request, code_challenge: 'short', code_challenge_method: 'S256' }, web)).toHaveProperty('redirect');
  });

  it('carries an OpenID Connect nonce', () => {
    expect(outcome({ ...valid, nonce: 'n-0S6_WzA2Mj' }, desktop)).toHaveProperty('ok.nonce', 'n-0S6_WzA2Mj');
  });

  it('ignores parameters that are not strings', () => {
    expect(outcome({ ...valid, ui_locales: ['de'], login_hint: { a: 1 } }, desktop)).toHaveProperty('ok.uiLocales', undefined);
  });
});

describe('hiddenParameters', () => {
  it('carries the request through the form, the nonce and languages only when present', () => {
    expect(
      hiddenParameters({
        clientId: 'c',
        redirectUri: 'https://a.example/cb',
        state: 's',
        codeChallenge: CHALLENGE,
        nonce: null,
        uiLocales: undefined,
        loginHint: 'x@example.com',
      }),
    ).toEqual({
      response_type: 'code',
      client_id: 'c',
      redirect_uri: 'https://a.example/cb',
      state: 's',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
    });
    expect(
      hiddenParameters({
        clientId: 'c',
        redirectUri: 'r',
        state: 's',
        codeChallenge: CHALLENGE,
        nonce: 'n',
        uiLocales: 'de',
        loginHint: undefined,
      }),
    ).toEqual({
      response_type: 'code',
      client_id: 'c',
      redirect_uri: 'r',
      state: 's',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      nonce: 'n',
      ui_locales: 'de',
    });
  });
});
