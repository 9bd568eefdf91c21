import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { ProblemException, SESAME_CONFIG, SesameConfig } from '@sesame/common';

type HeaderValue = string | string[] | undefined;

/**
 * Refuses a form post that another site made the browser send (login CSRF), from what the
 * browser says about where the request comes from:
 * - `Sec-Fetch-Site` (Fetch Metadata, sent by current browsers): only `same-origin` (the page's
 *   own form) or `none` (the user's own action) pass;
 * - without it, `Origin`: when present it must be Sesame's public origin (PUBLIC_BASE_URL).
 * Requests with neither come from no browser (a server, a test) and carry no ambient credentials.
 */
@Injectable()
export class SameOriginFormGuard implements CanActivate {
  private readonly origin: string;

  constructor(@Inject(SESAME_CONFIG) config: SesameConfig) {
    this.origin = new URL(config.http.publicBaseUrl).origin;
  }

  canActivate(context: ExecutionContext): boolean {
    const headers = context.switchToHttp().getRequest<{ headers: Record<string, HeaderValue> }>().headers;
    if (!isSameOrigin(single(headers['sec-fetch-site']), single(headers.origin), this.origin)) {
      throw new ProblemException(403, 'cross_site_request', 'This form can only be sent from its own page. Open the link from your e-mail again.');
    }
    return true;
  }
}

export function isSameOrigin(fetchSite: string | undefined, origin: string | undefined, ownOrigin: string): boolean {
  if (fetchSite !== undefined) return fetchSite === 'same-origin' || fetchSite === 'none';
  return origin === undefined || origin === ownOrigin;
}

function single(value: HeaderValue): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
