import { ApplicationType } from './callback-url';
import { isLoopbackHost, isLoopbackIp } from './loopback';
import { originMatchesWhitelist } from './whitelist-domain';

export interface RedirectTarget {
  type: ApplicationType;
  /** The application's registered callback URLs (WHATWG-serialised). */
  callbackUrls: readonly string[];
  /** The organization's normalised whitelist origins. */
  whitelistDomains: readonly string[];
}

/**
 * Decides whether the service may redirect to `raw` for this application, and returns the URL
 * it redirects to (its own re-serialisation of the parsed URL) or null. A redirect_uri that
 * fails is never redirected to.
 * - every type: no fragment or credentials, no path starting with `//`;
 * - web: https (http only on loopback), origin on a whitelist
 *   domain, and equal to a registered callback URL when the app registered any (RFC 9700 §2.1);
 * - android, ios: equal to a registered callback URL;
 * - desktop: equal to a registered callback URL, where a loopback IP callback matches on any
 *   port (RFC 8252 §7.3); `localhost` is not treated as loopback (RFC 8252 §8.3).
 */
export function allowedRedirect(target: RedirectTarget, raw: string): URL | null {
  const url = parseAbsolute(raw);
  if (!url || RESPONSE_PARAMETERS.some((name) => url.searchParams.has(name))) return null;
  // A path starting with "//" reads as a host once it is put on another origin ("//evil.com/cb").
  if (url.pathname.startsWith('//')) return null;
  if (target.type === 'web') return webRedirectAllowed(target, url) ? url : null;
  if (target.callbackUrls.includes(url.href)) return url;
  return target.type === 'desktop' && target.callbackUrls.some((callback) => sameLoopbackCallback(callback, url)) ? url : null;
}

/** The callback parameter carrying an autologin walk's next URL (docs/autologin.md). */
export const AUTOLOGIN_CONTINUE_PARAMETER = 'autologin_continue';

/** Parameters the service adds to the redirect: a redirect_uri that already has them would be ambiguous. */
const RESPONSE_PARAMETERS = ['code', 'state', 'error', 'error_description', AUTOLOGIN_CONTINUE_PARAMETER];

function parseAbsolute(raw: string): URL | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2000 || /[\s\\#]/.test(raw)) return null;
  try {
    const url = new URL(raw);
    return url.username || url.password ? null : url;
  } catch {
    return null;
  }
}

function webRedirectAllowed(target: RedirectTarget, url: URL): boolean {
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!secure || !originMatchesWhitelist(url.origin, target.whitelistDomains)) return false;
  return target.callbackUrls.length === 0 || target.callbackUrls.includes(url.href);
}

function sameLoopbackCallback(registered: string, url: URL): boolean {
  if (url.protocol !== 'http:' || !isLoopbackIp(url.hostname)) return false;
  const callback = new URL(registered);
  return (
    callback.protocol === 'http:' &&
    callback.hostname === url.hostname &&
    callback.pathname === url.pathname &&
    callback.search === url.search
  );
}

/** `url` with the parameters added to its query (existing parameters are kept). */
export function withQuery(url: URL | string, parameters: Record<string, string>): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(parameters)) target.searchParams.append(name, value);
  return target.href;
}
