import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { problem, randomSecret, secretsEqual, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { createHmac } from 'node:crypto';
import { CONSOLE_CREDENTIALS, ConsoleCredentials } from '../console-credentials';
import { BufferedResponse } from '../http/buffered-response';

/** The console's own cookie: a random value, HttpOnly, Secure (browsers accept it from http://localhost too), SameSite=Strict, under /console. */
export const CSRF_COOKIE = 'sesame_console_csrf';
/** Where a state-changing request carries its CSRF token (a form cannot set a header). */
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface CsrfRequest {
  method?: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Signed double-submit CSRF tokens: the browser holds a random value in an HttpOnly cookie, and a
 * state-changing request must also present the value's HMAC (keyed from the console's client
 * secret), which only the console's own pages can read (GET /console/api/session). A form or a
 * script on another site can send the cookie, but not the token; nor can a cookie planted by a
 * neighbouring site come with a valid token.
 */
@Injectable()
export class CsrfTokens {
  private readonly key: Buffer;

  constructor(@Inject(CONSOLE_CREDENTIALS) credentials: ConsoleCredentials) {
    this.key = createHmac('sha256', credentials.clientSecret).update('sesame-console-csrf').digest();
  }

  /** The token for this browser, setting its cookie first when it has none. */
  tokenFor(request: CsrfRequest, response: BufferedResponse): string {
    let value = cookieValue(request.headers.cookie, CSRF_COOKIE);
    if (!value) {
      value = randomSecret();
      response.appendCookie(`${CSRF_COOKIE}=${value}; Path=/console; HttpOnly; Secure; SameSite=Strict`);
    }
    return this.sign(value);
  }

  /** True when the request presents the token of its own cookie. */
  verify(request: CsrfRequest): boolean {
    const value = cookieValue(request.headers.cookie, CSRF_COOKIE);
    const presented = request.headers[CSRF_HEADER];
    return value !== null && typeof presented === 'string' && secretsEqual(presented, this.sign(value));
  }

  private sign(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('base64url');
  }
}

/**
 * Refuses every state-changing request (any method but GET, HEAD and OPTIONS) that comes from
 * another origin (Origin, or Sec-Fetch-Site: cross-site) or without the CSRF token of its cookie.
 */
@Injectable()
export class CsrfGuard implements CanActivate {
  private readonly origin: string;

  constructor(
    private readonly tokens: CsrfTokens,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.origin = new URL(config.console.publicUrl).origin;
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<CsrfRequest>();
    if (SAFE_METHODS.has((request.method ?? 'GET').toUpperCase())) return true;
    const origin = request.headers.origin;
    if ((typeof origin === 'string' && origin !== this.origin) || request.headers['sec-fetch-site'] === 'cross-site') {
      throw problem('cross_origin_request', `Changes are accepted only from the console's own pages (${this.origin})`);
    }
    if (!this.tokens.verify(request))
      throw problem('csrf_token_invalid', 'Send the CSRF token of GET /console/api/session as the X-CSRF-Token header');
    return true;
  }
}

/** A cookie's value from a Cookie header (the first of a repeated name, as browsers send the most specific first). */
function cookieValue(header: string | string[] | undefined, name: string): string | null {
  for (const part of [header ?? []].flat().join('; ').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name && value.length > 0) return value.join('=');
  }
  return null;
}
