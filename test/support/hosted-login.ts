import request, { Response } from 'supertest';
import { Stack } from './apps';
import { followLink, uniqueEmail } from './login';
import { linkIn, SmtpSink } from './smtp-sink';

/** The hidden fields of the hosted sign-in form (the request's parameters and the CSRF value). */
export function hiddenFields(page: string): Record<string, string> {
  const unescape = (value: string) =>
    value
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  return Object.fromEntries(
    [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1], unescape(match[2])]),
  );
}

export interface OpenedForm {
  response: Response;
  /** `sesame_csrf=…`, to send back as the Cookie header. */
  cookie: string;
  fields: Record<string, string>;
}

/** GET /v1/authorize, expecting the sign-in form. */
export async function openAuthorize(
  authUrl: string,
  query: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<OpenedForm> {
  const response = await request(authUrl).get('/api/v1/authorize').query(query).set(headers).expect(200);
  const cookie = String(response.headers['set-cookie']?.[0] ?? '').split(';')[0];
  return { response, cookie, fields: hiddenFields(response.text) };
}

/** POSTs the form back with an e-mail address, as the browser would. */
export function submitEmail(authUrl: string, form: OpenedForm, email: string, headers: Record<string, string> = {}) {
  return request(authUrl)
    .post('/api/v1/authorize')
    .set({ Cookie: form.cookie, ...headers })
    .type('form')
    .send({ ...form.fields, email });
}

/** The browser's cookies once it asked for the e-mail: the form's CSRF cookie and the attempt cookie `sent` set. */
export function askedCookies(form: OpenedForm, sent: Response): string {
  return `${form.cookie}; ${String(sent.headers['set-cookie']?.[0] ?? '').split(';')[0]}`;
}

/** The whole hosted login over HTTP: form, e-mail, link, Continue. Returns where the browser lands. */
export async function hostedLogin(
  stack: Stack,
  smtp: SmtpSink,
  query: Record<string, string>,
  email = uniqueEmail('hosted'),
): Promise<URL> {
  const form = await openAuthorize(stack.auth.url, query);
  await submitEmail(stack.auth.url, form, email).expect(200);
  return followLink(stack, smtp, email);
}

/** The sentence shown on a page (check-your-inbox and login-link pages carry it in #sentence). */
export function sentenceIn(page: string): string {
  const match = /<div class="phrase" id="sentence">([^<]*)<\/div>/.exec(page);
  if (!match) throw new Error('No sentence on the page');
  return match[1];
}

/**
 * What a user does in the browser, over plain HTTP with fetch (as a standards-only client's test
 * would): open the authorization URL the client built, submit the e-mail address, open the mailed
 * link, press Continue. Returns the mailed link and the callback URL the browser lands on.
 */
export async function userSignsIn(smtp: SmtpSink, authorizationUrl: URL, email: string): Promise<{ link: URL; callback: URL }> {
  const form = await fetch(authorizationUrl, { redirect: 'manual' });
  if (form.status !== 200) throw new Error(`The sign-in form answered ${form.status} (${form.headers.get('location') ?? ''})`);
  const cookie = form.headers.get('set-cookie')!.split(';')[0];
  const sent = await fetch(new URL(authorizationUrl.pathname, authorizationUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...hiddenFields(await form.text()), email }),
  });
  if (sent.status !== 200) throw new Error(`Submitting the address answered ${sent.status}`);
  const link = new URL(linkIn(await smtp.next(email)));
  if ((await fetch(link, { redirect: 'manual' })).status !== 200) throw new Error('The link page did not open');
  const continued = await fetch(new URL('login_link', link), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: link.searchParams.get('token')! }),
  });
  if (continued.status !== 303) throw new Error(`Continue answered ${continued.status}`);
  return { link, callback: new URL(continued.headers.get('location')!) };
}
