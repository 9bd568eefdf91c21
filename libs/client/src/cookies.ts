/** The request and response shapes the client needs: node:http's IncomingMessage and ServerResponse, and Express's, fit them. */
export interface RequestLike {
  /** The path and query (node:http), relative to the mount point in an Express router. */
  url?: string;
  /** Express: the path and query as the client sent them, before routers strip their mount path. */
  originalUrl?: string;
  method?: string;
  headers: Record<string, string | string[] | undefined>;
  /** A TLS socket has `encrypted: true`. */
  socket?: object | null;
}

export interface ResponseLike {
  statusCode: number;
  setHeader(name: string, value: string | number | readonly string[]): unknown;
  getHeader(name: string): string | number | string[] | undefined;
  end(chunk?: string): unknown;
  readonly headersSent?: boolean;
  readonly writableEnded?: boolean;
}

export interface CookieOptions {
  /** Seconds until the browser drops the cookie; 0 deletes it. */
  maxAge: number;
  path: string;
  domain?: string;
}

/**
 * A Set-Cookie value with the flags the client always uses: HttpOnly (scripts cannot read it),
 * Secure (sent over HTTPS only; browsers treat http://localhost and http://127.0.0.1 as secure)
 * and SameSite=Lax (sent on top-level navigations from other sites, such as the redirect back
 * from Sesame, but not on their form posts or subrequests).
 */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${options.path}`, `Max-Age=${Math.max(0, Math.floor(options.maxAge))}`];
  if (options.maxAge <= 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (options.domain) parts.push(`Domain=${options.domain}`);
  parts.push('HttpOnly', 'Secure', 'SameSite=Lax');
  return parts.join('; ');
}

/** The cookies of a request's Cookie header; the first of a repeated name wins (the most specific path, RFC 6265 §5.4). */
export function parseCookies(header: string | string[] | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  const text = Array.isArray(header) ? header.join('; ') : (header ?? '');
  for (const part of text.split(';')) {
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    const name = part.slice(0, equals).trim();
    let value = part.slice(equals + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (name && !cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

/** Adds a Set-Cookie header to the response, keeping those already set (and replacing an earlier one for the same cookie). */
export function appendSetCookie(res: ResponseLike, cookie: string): void {
  const name = cookie.slice(0, cookie.indexOf('='));
  const existing = res.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
  res.setHeader('Set-Cookie', [...list.filter((value) => value.slice(0, value.indexOf('=')) !== name), cookie]);
}
