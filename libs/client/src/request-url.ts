import { isIP } from 'node:net';
import { URL } from 'node:url';
import { formDecode } from '@sesame/client-core';
import { RequestLike } from './cookies';
import { SesameError } from './errors';

/** The query parameters Sesame adds to a callback URL. */
export const CALLBACK_PARAMETERS = ['code', 'state', 'autologin_continue', 'error', 'error_description'] as const;

/**
 * The absolute URL of the current request: scheme from the socket (or X-Forwarded-Proto when
 * proxies are trusted), host from the Host header (or X-Forwarded-Host), and Express's
 * originalUrl when there is one (req.url is relative to a router's mount path).
 */
export function currentUrl(req: RequestLike, trustProxy: boolean): URL {
  const forwarded = (name: string) => (trustProxy ? firstValue(req.headers[name])?.split(',')[0]?.trim() : undefined) || undefined;
  const scheme =
    forwarded('x-forwarded-proto') ?? ((req.socket as { encrypted?: boolean } | null | undefined)?.encrypted ? 'https' : 'http');
  const host = forwarded('x-forwarded-host') ?? firstValue(req.headers.host) ?? firstValue(req.headers[':authority']) ?? 'localhost';
  const path = typeof req.originalUrl === 'string' ? req.originalUrl : (req.url ?? '/');
  return new URL(path.startsWith('/') ? path : `/${path}`, `${scheme}://${host}`);
}

/**
 * The end user's IP address, passed on to Sesame for the person approving from another device to
 * see: the socket's peer, or behind a trusted proxy the address it appended to X-Forwarded-For
 * (the last one: those before it are the client's to write). Undefined when it is not an address.
 */
export function clientAddress(req: RequestLike, trustProxy: boolean): string | undefined {
  const forwarded = trustProxy ? [req.headers['x-forwarded-for']].flat().join(',').split(',').pop()?.trim() : undefined;
  const address = (forwarded || (req.socket as { remoteAddress?: string } | null | undefined)?.remoteAddress)?.replace(
    /^::ffff:(?=\d+\.)/,
    '',
  );
  return address && isIP(address) ? address : undefined;
}

export type ReturnToSource = 'config' | 'query' | 'referer' | 'origin';

/**
 * Where the user returns after the login, in the order the interface specification gives: the
 * explicit `returnTo`, the `return_to` query parameter of the request URL, the Referer, and the
 * origin of the current request URL. Relative values are resolved against the current URL.
 *
 * The login cookie is set on the current request's host, and the callback must find it there, so
 * a target on another origin (scheme, host and port) is not used: an explicit one is an error,
 * while a `return_to` or Referer from elsewhere (which anyone can put in a link) is skipped.
 */
export function resolveReturnTo(req: RequestLike, explicit: string | undefined, trustProxy: boolean): { url: URL; source: ReturnToSource } {
  const current = currentUrl(req, trustProxy);
  if (explicit !== undefined) {
    const url = usableTarget(explicit, current);
    if (!url)
      throw new SesameError(
        'invalid_request',
        `returnTo must be an http(s) URL on ${current.origin} (the origin the login starts on): ${explicit}`,
      );
    return { url, source: 'config' };
  }
  const query = current.searchParams.get('return_to');
  const fromQuery = query === null ? null : usableTarget(query, current);
  if (fromQuery) return { url: fromQuery, source: 'query' };
  const referer = firstValue(req.headers.referer) ?? firstValue(req.headers.referrer);
  const fromReferer = referer === undefined ? null : usableTarget(referer, current);
  if (fromReferer) return { url: fromReferer, source: 'referer' };
  return { url: new URL('/', current.origin), source: 'origin' };
}

function usableTarget(value: string, current: URL): URL | null {
  if (value.trim() === '' || value.startsWith('//') || value.includes('\\')) return null; // "//evil.example" is another host, without a scheme
  let url: URL;
  try {
    url = new URL(value, current);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // The same origin: scheme, host and port (another port is another server, as far as cookies are not concerned).
  if (url.origin !== current.origin || url.username || url.password) return null;
  url.hash = '';
  return url;
}

/**
 * The callback URL Sesame redirected to: the current URL without the parameters Sesame added
 * (code, state, autologin_continue, error, error_description). Other parameters keep their
 * original encoding, so the result is the redirect_uri the code is bound to.
 */
export function withoutCallbackParameters(url: URL): string {
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !(CALLBACK_PARAMETERS as readonly string[]).includes(formDecode(pair.split('=')[0])));
  const clean = new URL(url.href);
  clean.hash = '';
  clean.search = kept.length > 0 ? `?${kept.join('&')}` : '';
  return clean.href;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
