import { AUTOLOGIN_CONTINUE_PARAMETER } from '../urls/redirect-uri';

/**
 * What the logs must never contain: credentials and one-time secrets. Request and response bodies
 * are never logged at all; these rules clean what is logged of URLs and headers.
 */
export const REDACTED = '[Redacted]';

/** Paths whose whole query string is a secret (the e-mailed link token, autologin continuations). */
const SECRET_QUERY_PATHS = /\/v1\/(login_link|autologin)\/?$/;

/** Query (or form) parameters that carry a secret wherever they appear: in request URLs, Location and Referer. */
export const SECRET_PARAMETERS: ReadonlySet<string> = new Set([
  'token',
  'code',
  'code_verifier',
  'client_secret',
  'client_assertion',
  AUTOLOGIN_CONTINUE_PARAMETER,
  'access_token',
  'id_token',
  'refresh_token',
  'csrf',
  'password',
]);

/** Headers whose value is a credential. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-csrf-token',
]);

/** Headers that hold a URL (which may carry a secret in its query). */
const URL_HEADERS: ReadonlySet<string> = new Set(['location', 'referer', 'content-location']);

/**
 * A URL (absolute, or a path with a query) fit for the logs: the query of /v1/login_link and
 * /v1/autologin is dropped whole, secret parameters elsewhere are replaced, and a fragment is dropped.
 */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const main = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : `#${REDACTED}`;
  const queryStart = main.indexOf('?');
  if (queryStart === -1) return `${main}${fragment}`;
  const path = main.slice(0, queryStart);
  if (SECRET_QUERY_PATHS.test(path)) return `${path}?${REDACTED}${fragment}`;
  const query = main
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return isSecretParameter(name) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}${fragment}`;
}

function isSecretParameter(encodedName: string): boolean {
  let name = encodedName;
  try {
    name = decodeURIComponent(encodedName.replace(/\+/g, ' '));
  } catch {
    // A malformed name is compared as it is.
  }
  return SECRET_PARAMETERS.has(name.trim().toLowerCase());
}

/** Headers fit for the logs: credentials replaced, URLs cleaned. */
export function redactHeaders(headers: Record<string, unknown> | undefined): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (SECRET_HEADERS.has(lower)) result[name] = REDACTED;
    else if (URL_HEADERS.has(lower))
      result[name] = Array.isArray(value) ? value.map((v) => redactUrl(String(v))) : redactUrl(String(value));
    else result[name] = value;
  }
  return result;
}

interface SerializedRequest {
  method?: string;
  url?: string;
  headers?: Record<string, unknown>;
  remoteAddress?: string;
  remotePort?: number;
}

interface SerializedResponse {
  statusCode?: number;
  headers?: Record<string, unknown>;
}

/**
 * pino-http's `req` serializer: method, cleaned URL and headers, peer address. Never the body,
 * nor the parsed query or route parameters (the platform's copies of what the URL carries).
 */
export function serializeRequest(request: SerializedRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? redactUrl(request.url) : request.url,
    headers: redactHeaders(request.headers),
    remoteAddress: request.remoteAddress,
    remotePort: request.remotePort,
  };
}

/** pino-http's `res` serializer: status and cleaned headers (no Set-Cookie, Location without secrets). */
export function serializeResponse(response: SerializedResponse): Record<string, unknown> {
  return { statusCode: response.statusCode, headers: redactHeaders(response.headers) };
}
