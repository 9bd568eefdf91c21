import request from 'supertest';
import { ApplicationFixture } from './fixtures';
import { askedCookies, hiddenFields, openAuthorize, submitEmail } from './hosted-login';
import { pkcePair, uniqueEmail } from './login';
import { codeIn, SmtpSink } from './smtp-sink';
import { CreationOptions, SoftwareAuthenticator } from './software-authenticator';

export const PASSKEY_REDIRECT_URI = 'http://localhost:4000/callback';

/** What the passkey offer screen carries, after an e-mailed login in a browser that can make passkeys. */
export interface PasskeyOffer {
  email: string;
  /** The browser's cookies: the CSRF cookie and the attempt cookie. */
  cookie: string;
  registration: string;
  csrf: string;
  continueUrl: string;
  page: string;
  client: ApplicationFixture;
}

/** A POST to one of the hosted page's passkey endpoints, from Sesame's own origin (as the page's script sends it). */
export function passkeyPost(
  authUrl: string,
  origin: string,
  path: string,
  cookie: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return request(authUrl)
    .post(`/api/v1/authorize/passkey/${path}`)
    .set({ Cookie: cookie, Origin: origin, ...headers })
    .send(body);
}

/**
 * An e-mailed login on the hosted page, completed with the e-mail's code in a browser whose page
 * reported it can make passkeys (`passkey_offer=1`): answers the offer screen.
 */
export async function emailedLoginWithOffer(
  authUrl: string,
  smtp: SmtpSink,
  client: ApplicationFixture,
  email = uniqueEmail('passkey'),
): Promise<PasskeyOffer> {
  const form = await openAuthorize(authUrl, {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: PASSKEY_REDIRECT_URI,
    state: `offer-${Date.now()}`,
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
  });
  const sent = await submitEmail(authUrl, form, email).expect(200);
  const cookie = askedCookies(form, sent);
  const code = codeIn(await smtp.next(email));
  const offered = await request(authUrl)
    .post('/api/v1/authorize/code')
    .set('Cookie', cookie)
    .type('form')
    .send({ ...hiddenFields(sent.text), code, passkey_offer: '1' })
    .expect(200);
  return offerOn(offered.text, { email, cookie, client });
}

/** The offer screen `page` of the browser with `cookie` (its CSRF and attempt cookies). */
export function offerOn(page: string, browser: Pick<PasskeyOffer, 'email' | 'cookie' | 'client'>): PasskeyOffer {
  const read = (name: string) => (new RegExp(`data-${name}="([^"]*)"`).exec(page)?.[1] ?? '').replace(/&amp;/g, '&');
  return { ...browser, registration: read('registration'), csrf: read('csrf'), continueUrl: read('continue-url'), page };
}

/** Registers a passkey of `authenticator` through the offer; answers the creation options it was given. */
export async function registerPasskey(
  authUrl: string,
  origin: string,
  authenticator: SoftwareAuthenticator,
  offer: PasskeyOffer,
): Promise<CreationOptions> {
  const body = { client_id: offer.client.clientId, registration: offer.registration, csrf: offer.csrf };
  const options = (await passkeyPost(authUrl, origin, 'register/options', offer.cookie, body).expect(200)).body as CreationOptions;
  const response = authenticator.register(options);
  await passkeyPost(authUrl, origin, 'register/verify', offer.cookie, { ...body, response }).expect(200, { registered: true });
  return options;
}
