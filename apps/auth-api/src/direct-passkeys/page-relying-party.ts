import { isIP } from 'node:net';
import { isLoopbackHost, originMatchesWhitelist } from '@sesame/common';

/** The relying party of an application's own page: the page's origin, and its host as RP ID. */
export interface PageRelyingParty {
  id: string;
  origin: string;
}

/**
 * The relying party of the page `origin` an application runs a ceremony on, or null when that
 * origin may not be one: it must be an origin exactly as a browser reports it in clientDataJSON
 * (scheme, host, port; no path), https (http only on loopback hosts), one of the organization's
 * whitelist domains (as a redirect_uri's origin must be), and have a domain name (WebAuthn takes no
 * IP address as RP ID). The RP ID is the origin's host: passkeys registered there work on that host
 * only (see docs/passkeys.md, "Direct authentication").
 */
export function pageRelyingParty(origin: unknown, whitelistDomains: readonly string[]): PageRelyingParty | null {
  if (typeof origin !== 'string' || origin.length === 0 || origin.length > 300) return null;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!secure || isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0) return null;
  if (!originMatchesWhitelist(url.origin, whitelistDomains)) return null;
  return { id: url.hostname, origin: url.origin };
}
