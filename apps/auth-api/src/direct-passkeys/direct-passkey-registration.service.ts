import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { generateRegistrationOptions } from '@simplewebauthn/server';
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Clock, problem, ProblemException, sha256 } from '@sesame/common';
import { AccessTokenRepository, FreshLoginToken, PasskeyChallengeRepository, PasskeyRepository, Transactions } from '@sesame/entities';
import { challengeOfClientData } from '../login-page/passkey-binding';
import { ALGORITHMS, MAX_PASSKEYS_PER_USER, PasskeyCeremony, userHandleOf } from '../passkeys/passkey-ceremony';
import { DirectPasskeyCaller } from './direct-passkey-context';
import { directRegistrationBinding } from './direct-passkey-binding';

/**
 * How long after signing in a user may register a passkey on the application's page: the login
 * (its access token's code's auth_time) must be this recent, and the grant expires then.
 */
export const DIRECT_REGISTRATION_SECONDS = 600;
const CEREMONY_TIMEOUT_MS = 300_000;

/** Who registers, as the application's server sees them. */
export interface DirectRegistrant {
  accessToken: string;
  requestId: string | null;
  userAgent: string | null;
  ip: string | null;
}

/**
 * Registering a passkey on an application's own page, right after a direct login: the application
 * presents the access token that login just issued. It names the user, and its code's sign-in
 * (auth_time) must be at most DIRECT_REGISTRATION_SECONDS old; the token gets one grant
 * (passkey_challenge, purpose registration, access_token_hash), which gives challenges (each used
 * once, bound to the application and the page's origin) and registers one passkey, until that
 * time. Attestation none, a discoverable key, user verification required; the library checks the
 * answer. The passkey is kept under the page's RP ID, reported (`passkey.registered`) and audited
 * with the user as the actor.
 */
@Injectable()
export class DirectPasskeyRegistrationService {
  constructor(
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly challenges: PasskeyChallengeRepository,
    private readonly passkeys: PasskeyRepository,
    private readonly accessTokens: AccessTokenRepository,
    private readonly ceremony: PasskeyCeremony,
  ) {}

  async options(caller: DirectPasskeyCaller, registrant: DirectRegistrant): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const now = this.clock.now();
    const token = await this.freshToken(caller, registrant, now);
    const existing = await this.passkeys.credentialIdsOfUser(token.userId);
    if (existing.length >= MAX_PASSKEYS_PER_USER) throw notAllowed();
    const challenge = randomBytes(32);
    const grant = await this.challenges.challengeTokenGrant({
      organizationId: caller.context.organization.id,
      applicationId: caller.context.application.id,
      userId: token.userId,
      accessTokenHash: token.hash,
      binding: directRegistrationBinding(caller.context.application.id, caller.relyingParty.origin),
      challenge: challenge.toString('base64url'),
      expiresAt: new Date(token.authTime.getTime() + DIRECT_REGISTRATION_SECONDS * 1000),
      now,
    });
    if (!grant) throw notAllowed();
    return generateRegistrationOptions({
      rpName: caller.context.organization.name,
      rpID: caller.relyingParty.id,
      userName: token.email,
      userID: new Uint8Array(Buffer.from(userHandleOf(token.userId), 'base64url')),
      userDisplayName: token.email,
      challenge: new Uint8Array(challenge),
      timeout: CEREMONY_TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: existing.map(({ credentialId, transports }) => ({ id: credentialId.toString('base64url'), transports })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      supportedAlgorithmIDs: ALGORITHMS,
    });
  }

  /**
   * Checks the authenticator's answer against the grant's current challenge (taken once, whatever
   * the outcome) and stores the passkey under the page's RP ID, reported and audited, in one
   * transaction that also uses the grant up.
   */
  async verify(
    caller: DirectPasskeyCaller,
    registrant: DirectRegistrant,
    response: RegistrationResponseJSON,
  ): Promise<{ passkeyId: string; name: string }> {
    const now = this.clock.now();
    const token = await this.freshToken(caller, registrant, now);
    const challenge = challengeOfClientData(response?.response?.clientDataJSON);
    if (!challenge) throw refusedRegistration();
    const binding = directRegistrationBinding(caller.context.application.id, caller.relyingParty.origin);
    // The challenge is taken in a transaction of its own: nothing that fails afterwards gives it back.
    const grant = await this.transactions.run((manager) =>
      this.challenges.claimTokenGrantChallenge(manager, token.hash, challenge, binding, now),
    );
    if (!grant || grant.userId !== token.userId) throw invalidChallenge();
    const outcome = await this.transactions.run((manager) =>
      this.ceremony.register(manager, {
        owner: { tenantId: caller.context.tenant.id, organizationId: token.organizationId, userId: token.userId },
        grantId: grant.id,
        expectedChallenge: challenge,
        party: caller.relyingParty,
        response,
        browser: { userAgent: registrant.userAgent, ip: registrant.ip, requestId: registrant.requestId },
        notAllowed,
        now,
      }),
    );
    if (outcome instanceof ProblemException) throw outcome;
    await this.ceremony.tellUser(outcome, registrant.requestId);
    return { passkeyId: outcome.id, name: outcome.name };
  }

  /** The registrant's access token, when it is this application's and its login is recent enough (else the registration is not allowed). */
  private async freshToken(caller: DirectPasskeyCaller, registrant: DirectRegistrant, now: Date): Promise<FreshLoginToken> {
    const signedInSince = new Date(now.getTime() - DIRECT_REGISTRATION_SECONDS * 1000);
    const token =
      typeof registrant.accessToken === 'string' && registrant.accessToken.length > 0
        ? await this.accessTokens.findFreshLoginToken(sha256(registrant.accessToken), caller.context.application.id, now, signedInSince)
        : null;
    if (!token || token.organizationId !== caller.context.organization.id) throw notAllowed();
    return token;
  }
}

function notAllowed(): ProblemException {
  return problem(
    'passkey_registration_not_allowed',
    'A passkey can be added only within 10 minutes of signing in, with the access token that sign-in issued, once.',
  );
}

function refusedRegistration(): ProblemException {
  return problem('passkey_refused', 'The passkey could not be created. Try again.');
}

function invalidChallenge(): ProblemException {
  return problem(
    'passkey_challenge_invalid',
    'This passkey request has expired, was already used or is another page’s. Ask for new options.',
  );
}
