import request, { Response } from 'supertest';
import { Stack } from './apps';
import { followLink, uniqueEmail } from './login';
import { SmtpSink } from './smtp-sink';

/** The hidden fields of the hosted sign-in form (the request's parameters and the CSRF value). */
export function hiddenFields(page: string): Record<string, string> {
  const unescape = (value: string) => value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return Object.fromEntries([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1], unescape(match[2])]));
}

export interface OpenedForm {
  response: Response;
  /** `sesame_csrf=…`, to send back as the Cookie header. */
  cookie: string;
  fields: Record<string, string>;
}

/** GET /v1/authorize, expecting the sign-in form. */
export async function openAuthorize(authUrl: string, query: Record<string, string>, headers: Record<string, string> = {}): Promise<OpenedForm> {
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

/** The whole hosted login over HTTP: form, e-mail, link, Continue. Returns where the browser lands. */
export async function hostedLogin(stack: Stack, smtp: SmtpSink, query: Record<string, string>, email = uniqueEmail('hosted')): Promise<URL> {
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
