import { CDPSession } from 'playwright-core';
import { TestBrowser } from './browser';

/**
 * A virtual authenticator in a test browser (DevTools protocol, WebAuthn domain): a platform
 * authenticator (CTAP2, internal transport) with resident keys and user verification, which
 * answers every ceremony at once.
 */
export async function addVirtualAuthenticator(browser: TestBrowser): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await browser.context.newCDPSession(browser.page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
