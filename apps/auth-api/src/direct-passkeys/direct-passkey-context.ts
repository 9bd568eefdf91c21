import { Inject, Injectable } from '@nestjs/common';
import { Plan, problem, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { ClientContext } from '@sesame/entities';
import { ClientPrincipal } from '@sesame/guards';
import { ClientContexts } from '../clients/client-contexts';
import { relyingPartyOf } from '../login-page/relying-party';
import { CeremonyParty } from '../passkeys/passkey-ceremony';
import { pageRelyingParty } from './page-relying-party';

const DIRECT_AUTH_PLANS: readonly Plan[] = ['pro', 'enterprise'];

/** Whose request a direct passkey ceremony is, and on which page: the application's context and the page's relying party. */
export interface DirectPasskeyCaller {
  context: ClientContext;
  relyingParty: CeremonyParty;
}

/**
 * The checks every direct passkey request passes first, as authenticate_direct's: a web
 * application of a Pro or Enterprise tenant, passkeys not off in its organization, and the page's
 * origin one of the organization's whitelist domains with a domain name.
 */
@Injectable()
export class DirectPasskeyCallers {
  /** The hosted page's RP ID: its passkeys (stored without one) work on an application's page of that host too. */
  private readonly hostedRpId: string;

  constructor(
    private readonly contexts: ClientContexts,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.hostedRpId = relyingPartyOf(config.http.publicBaseUrl).id;
  }

  async require(client: ClientPrincipal, origin: string): Promise<DirectPasskeyCaller> {
    if (client.type !== 'web') throw problem('unauthorized_client', 'Direct authentication is available to web applications only');
    if (!DIRECT_AUTH_PLANS.includes(client.plan)) {
      throw problem('plan_not_supported', 'Direct authentication is available on the Pro and Enterprise plans only');
    }
    const context = await this.contexts.find(client.applicationId);
    if (!context) throw problem('unauthorized_client', 'The application no longer exists');
    if (context.organization.passkeys === 'off') throw problem('passkeys_off', 'Passkeys are turned off for this organization');
    const relyingParty = pageRelyingParty(origin, context.organization.whitelistDomains);
    if (!relyingParty) {
      throw problem(
        'invalid_request',
        'origin must be the page’s origin (scheme, host and port, no path), https (http on loopback only), with a domain name, and one of the organization’s whitelist domains',
      );
    }
    return { context, relyingParty: { ...relyingParty, hostedId: this.hostedRpId } };
  }
}
