import { isLoopbackHost, isLoopbackIp } from './loopback';
import { Normalized } from './normalized';

export const APPLICATION_TYPES = ['web', 'android', 'ios', 'desktop'] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];

// Private-use URI schemes must be reverse domain names (RFC 8252 §7.1), which also keeps out
// javascript:, data:, file: and friends.
const REVERSE_DOMAIN_SCHEME = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/;

/**
 * Validates a callback URL registered for an application and returns its WHATWG serialisation,
 * which is what redirect_uri values are compared against.
 * - https everywhere; http only on loopback (web: also `localhost`; desktop: loopback IPs only);
 * - private-use schemes (com.example.app:/cb) only for android and ios;
 * - never fragments, credentials or a path starting with `//` (read as a host elsewhere).
 */
export function validateCallbackUrl(input: string, type: ApplicationType): Normalized {
  if (typeof input !== 'string' || input.length === 0 || input.length > 2000) return fail('must be 1 to 2000 characters');
  if (/[\s\\]/.test(input)) return fail('must not contain whitespace or backslashes');
  if (input.includes('#')) return fail('must not contain a fragment');
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return fail('must be an absolute URL');
  }
  if (url.username || url.password) return fail('must not contain credentials');
  if (url.pathname.startsWith('//')) return fail('must not have a path starting with //');

  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return url.hostname ? ok(url) : fail('must have a host');
  if (scheme === 'http') {
    if (type === 'web' && isLoopbackHost(url.hostname)) return ok(url);
    if (type === 'desktop' && isLoopbackIp(url.hostname)) return ok(url);
    if (type === 'desktop') return fail('must use https or http on a loopback IP (127.0.0.1 or [::1])');
    if (type === 'web') return fail('must use https (http is allowed only for loopback hosts)');
    return fail('must use https or a reverse-domain custom scheme such as com.example.app:/callback');
  }
  if (type === 'android' || type === 'ios') {
    return REVERSE_DOMAIN_SCHEME.test(scheme) ? ok(url) : fail('a custom scheme must be a reverse domain name such as com.example.app');
  }
  return fail(type === 'web' ? 'must use https' : 'must use https or a loopback http URL');
}

function ok(url: URL): Normalized {
  return { ok: true, value: url.href };
}

function fail(reason: string): Normalized {
  return { ok: false, reason };
}
