import { isIP } from 'node:net';

/** Who passkeys are registered to: Sesame's public address, the hosted page's origin. */
export interface RelyingParty {
  /** The host of PUBLIC_BASE_URL (WebAuthn's RP ID): a passkey works only under this name. */
  id: string;
  /** The origin of PUBLIC_BASE_URL: the only origin a ceremony's clientDataJSON may name. */
  origin: string;
  /**
   * False when the host is an IP address, which WebAuthn does not accept as an RP ID: the page then
   * neither offers nor accepts passkeys.
   */
  available: boolean;
}

export function relyingPartyOf(publicBaseUrl: string): RelyingParty {
  const url = new URL(publicBaseUrl);
  const id = url.hostname;
  return { id, origin: url.origin, available: isIP(id.replace(/^\[|\]$/g, '')) === 0 };
}
