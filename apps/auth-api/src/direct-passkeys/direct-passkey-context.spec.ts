import type { SesameConfig } from '@sesame/common';
import { ProblemException } from '@sesame/common';
import { ClientContext } from '@sesame/entities';
import { ClientPrincipal } from '@sesame/guards';
import { ClientContexts } from '../clients/client-contexts';
import { DirectPasskeyCallers } from './direct-passkey-context';

describe('DirectPasskeyCallers', () => {
  const client = { applicationId: 'app-1', type: 'web', plan: 'pro' } as ClientPrincipal;
  const context = (passkeys = 'offered') =>
    ({
      application: { id: 'app-1' },
      organization: { id: 'org-1', passkeys, whitelistDomains: ['https://app.example.com'] },
    }) as unknown as ClientContext;
  const callers = (found: ClientContext | null) =>
    new DirectPasskeyCallers(
      { find: async () => found } as unknown as ClientContexts,
      {
        http: { publicBaseUrl: 'https://id.example.com/api' },
      } as SesameConfig,
    );
  const codeOf = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    return error instanceof ProblemException ? error.code : error;
  };

  it('answers the context and the page’s relying party for a whitelisted origin', async () => {
    await expect(callers(context()).require(client, 'https://app.example.com')).resolves.toMatchObject({
      context: { application: { id: 'app-1' } },
      relyingParty: { id: 'app.example.com', origin: 'https://app.example.com', hostedId: 'id.example.com' },
    });
  });

  it('refuses what authenticate_direct refuses, organizations with passkeys off, and origins outside the whitelist', async () => {
    expect(await codeOf(callers(context()).require({ ...client, type: 'android' } as ClientPrincipal, 'https://app.example.com'))).toBe(
      'unauthorized_client',
    );
    expect(await codeOf(callers(context()).require({ ...client, plan: 'free' } as ClientPrincipal, 'https://app.example.com'))).toBe(
      'plan_not_supported',
    );
    expect(await codeOf(callers(null).require(client, 'https://app.example.com'))).toBe('unauthorized_client');
    expect(await codeOf(callers(context('off')).require(client, 'https://app.example.com'))).toBe('passkeys_off');
    expect(await codeOf(callers(context()).require(client, 'https://evil.example.net'))).toBe('invalid_request');
  });
});
