import { parse } from 'tldts';
import { isLoopbackHost } from './loopback';

import { Normalized } from './normalized';

// scheme://authority with at most a trailing slash: paths, queries and fragments are not origins.
const ORIGIN_SHAPE = /^(https?):\/\/([^/?#\\\s]+)\/?$/i;
const WILDCARD_PREFIX = '*.';

/**
 * Validates a whitelist domain and normalises it to an origin: lower-case scheme and host,
 * IDN to punycode, default port dropped. `https://*.example.com` allows the direct subdomains
 * of example.com. http is accepted only for loopback hosts. This is the one function that
 * decides what a whitelist domain is; redirect checks compare against its output.
 */
export function normalizeWhitelistDomain(input: string): Normalized {
  if (typeof input !== 'string' || input.length === 0 || input.length > 300) return fail('must be 1 to 300 characters');
  const shape = ORIGIN_SHAPE.exec(input.trim());
  if (!shape) return fail('must be an origin such as https://example.com, without path, query or fragment');
  const [, scheme, authority] = shape;
  if (authority.includes('@')) return fail('must not contain credentials');
  if (authority.includes('%')) return fail('must not contain percent-encoding');

  const wildcard = authority.startsWith(WILDCARD_PREFIX);
  const rest = wildcard ? authority.slice(WILDCARD_PREFIX.length) : authority;
  if (rest.includes('*')) return fail('a wildcard is allowed only as the whole leftmost label, as in https://*.example.com');

  let url: URL;
  try {
    url = new URL(`${scheme.toLowerCase()}://${rest}`);
  } catch {
    return fail('is not a valid origin');
  }
  const host = url.hostname;
  if (host.endsWith('.') || host.length === 0) return fail('must have a host without a trailing dot');
  if (url.protocol === 'http:' && !isLoopbackHost(host)) return fail('must use https (http is allowed only for loopback hosts)');
  if (wildcard && !isWildcardBase(host))
    return fail(
      'a wildcard needs a registrable domain below it, as in https://*.example.com, never a public suffix such as *.co.uk or *.vercel.app',
    );

  const origin = `${url.protocol}//${wildcard ? WILDCARD_PREFIX : ''}${url.host}`;
  return { ok: true, value: origin };
}

/**
 * A wildcard's base must be a registrable domain or below one, by the Public Suffix List (its ICANN
 * and private sections, through tldts): `*.co.uk` or `*.vercel.app` would let every customer of
 * that suffix in. IP addresses and single labels never qualify.
 */
function isWildcardBase(host: string): boolean {
  const isIp = host.startsWith('[') || /^\d+(\.\d+){3}$/.test(host);
  return !isIp && host.split('.').length >= 2 && parse(host, { allowPrivateDomains: true }).domain !== null;
}

function fail(reason: string): Normalized {
  return { ok: false, reason };
}

/**
 * True when `origin` (as produced by `new URL(x).origin`) equals a whitelist entry, or is a
 * direct subdomain of a wildcard entry with the same scheme and port.
 */
export function originMatchesWhitelist(origin: string, whitelist: readonly string[]): boolean {
  // A wildcard entry matches subdomains only, never the literal origin "https://*.example.com".
  return whitelist.some((entry) => (entry === origin && !isWildcardEntry(entry)) || matchesWildcard(origin, entry));
}

function isWildcardEntry(entry: string): boolean {
  return entry.includes(`//${WILDCARD_PREFIX}`);
}

function matchesWildcard(origin: string, entry: string): boolean {
  const marker = entry.indexOf(`//${WILDCARD_PREFIX}`);
  if (marker < 0) return false;
  const scheme = entry.slice(0, marker);
  const baseHost = entry.slice(marker + 2 + WILDCARD_PREFIX.length);
  if (!origin.startsWith(`${scheme}//`)) return false;
  const host = origin.slice(scheme.length + 2);
  const suffix = `.${baseHost}`;
  if (!host.endsWith(suffix)) return false;
  const label = host.slice(0, -suffix.length);
  return /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label);
}
