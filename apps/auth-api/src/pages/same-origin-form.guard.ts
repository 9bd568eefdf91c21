import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { isSameOriginRequest, problem, SESAME_CONFIG, SesameConfig } from '@sesame/common';

/**
 * Refuses a form post that another site made the browser send (login CSRF): see
 * isSameOriginRequest. Sesame's own origin is PUBLIC_BASE_URL's.
 */
@Injectable()
export class SameOriginFormGuard implements CanActivate {
  private readonly origin: string;

  constructor(@Inject(SESAME_CONFIG) config: SesameConfig) {
    this.origin = new URL(config.http.publicBaseUrl).origin;
  }

  canActivate(context: ExecutionContext): boolean {
    const { headers } = context.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined> }>();
    if (!isSameOriginRequest(headers, this.origin)) {
      throw problem('cross_site_request', 'This form can only be sent from its own page. Open the link from your e-mail again.');
    }
    return true;
  }
}
