import { Inject, Injectable } from '@nestjs/common';
import { problem, readCookie, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { ClientContext } from '@sesame/entities';
import { ClientContexts } from '../clients/client-contexts';
import { PageRedirect } from '../pages/page-outcomes';
import { AuthorizeRequest, checkAuthorizeRequest } from './authorize-request';
import { CSRF_COOKIE, CsrfTokens } from './csrf';

/**
 * What every request of the hosted login page starts with: the authorize request checked against
 * its client, and the form's CSRF pair. Shared by the page's forms and its passkey JSON endpoints.
 */
@Injectable()
export class HostedRequests {
  readonly csrf: CsrfTokens;

  constructor(
    private readonly contexts: ClientContexts,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.csrf = new CsrfTokens(config.secrets.key);
  }

  /** The client and the request's parameters; an unknown client is a 400, a bad parameter a redirect back (see checkAuthorizeRequest). */
  async check(params: Record<string, unknown>): Promise<{ context: ClientContext; request: AuthorizeRequest }> {
    const context = await this.client(params.client_id);
    return { context, request: checkAuthorizeRequest(params, context) };
  }

  /** The application of a client_id (cached, see ClientContexts); an unknown one is a 400. */
  async client(clientId: unknown): Promise<ClientContext> {
    const context = typeof clientId === 'string' && clientId ? await this.contexts.findByClientId(clientId) : null;
    if (!context) throw problem('invalid_client', 'Unknown client_id', { status: 400 });
    return context;
  }

  /** As check, for JSON endpoints: a parameter that would send the browser back to the application is a 400 instead. */
  async checkJson(params: Record<string, unknown>): Promise<{ context: ClientContext; request: AuthorizeRequest }> {
    try {
      return await this.check(params);
    } catch (error) {
      if (error instanceof PageRedirect) {
        const description = new URL(error.url).searchParams.get('error_description') ?? 'The sign-in request is not valid';
        throw problem('invalid_request', description);
      }
      throw error;
    }
  }

  /** The form's CSRF pair must match; returns the cookie's value. */
  requireCsrf(form: Record<string, unknown>, cookieHeader: string | undefined): string {
    const cookie = readCookie(cookieHeader, CSRF_COOKIE);
    if (!this.csrf.verify(cookie, typeof form.csrf === 'string' ? form.csrf : undefined)) {
      throw problem('csrf_failed', 'This form has expired. Go back to the application and start signing in again.');
    }
    return cookie!;
  }
}
