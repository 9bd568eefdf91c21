import { Injectable } from '@nestjs/common';
import { allowedRedirect, problem, ProblemException, RedirectTarget } from '@sesame/common';
import { EntityManager } from 'typeorm';
import { ApplicationRepository } from '@sesame/entities';

/**
 * A redirect_uri is checked when a login starts and stored with it; before the browser is sent
 * there later (a login link pressed, an autologin walk continued; any later path to a code calls it
 * too) it is checked
 * again against the application's callback URLs and its organization's whitelist as they are now,
 * so that removing a domain or a callback takes effect for links already sent.
 */
@Injectable()
export class StoredRedirectCheck {
  constructor(private readonly contexts: ApplicationRepository) {}

  /** The redirect_uri values, of those given, that the application may still be sent to, in order (in the caller's transaction). */
  async stillAllowed(manager: EntityManager, applicationId: string, redirectUris: readonly string[]): Promise<string[]> {
    const context = await this.contexts.findContextById(applicationId, manager);
    if (!context) return [];
    const target: RedirectTarget = { ...context.application, whitelistDomains: context.organization.whitelistDomains };
    return redirectUris.filter((uri) => allowedRedirect(target, uri) !== null);
  }

  /** Throws the error page of a redirect_uri that is no longer allowed (the browser is never sent there). */
  async require(manager: EntityManager, applicationId: string, redirectUri: string): Promise<void> {
    if ((await this.stillAllowed(manager, applicationId, [redirectUri])).length === 0) throw redirectNoLongerAllowed();
  }
}

export function redirectNoLongerAllowed(): ProblemException {
  return problem(
    'invalid_redirect_uri',
    'This sign-in returns to an address the application no longer allows. Go back to the application and sign in again.',
  );
}
