import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { generateRegistrationOptions } from '@simplewebauthn/server';
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Clock, problem, ProblemException, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { ClientContext, PasskeyChallengeRepository, PasskeyRepository, Transactions, UserRepository } from '@sesame/entities';
import { registrationBinding } from './passkey-binding';
import { ALGORITHMS, MAX_PASSKEYS_PER_USER, PasskeyCeremony, userHandleOf } from '../passkeys/passkey-ceremony';
import { RelyingParty, relyingPartyOf } from './relying-party';

const CEREMONY_TIMEOUT_MS = 300_000;

/** The browser's secrets a registration is bound to, and who it comes from (for the audit log). */
export interface RegistrationBrowser {
  attemptCookie: string | undefined;
  csrfCookie: string;
  requestId: string | null;
  userAgent: string | null;
  ip: string | null;
}

/** A completed e-mailed login in this browser, which may be followed by the registration offer. */
export interface CompletedHere {
  context: ClientContext;
  userId: string;
  loginAttemptId: string;
  attemptCookie: string;
  csrfCookie: string;
}

/** What the offer screen needs: the grant to register with, and whether it may be skipped. */
export interface RegistrationOffer {
  registrationId: string;
  skippable: boolean;
}

/**
 * Registering a passkey on the hosted page, which only an e-mailed login just completed in this
 * browser allows: completing it creates a grant (passkey_challenge, purpose registration) bound
 * to the browser that asked for the e-mail and living as long as the login's authorization code;
 * the grant gives challenges (each used once) and registers one passkey. Attestation is `none`,
 * the key discoverable, user verification required; the library checks the answer.
 */
@Injectable()
export class PasskeyRegistrationService {
  private readonly relyingParty: RelyingParty;
  private readonly grantSeconds: number;

  constructor(
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly challenges: PasskeyChallengeRepository,
    private readonly passkeys: PasskeyRepository,
    private readonly users: UserRepository,
    private readonly ceremony: PasskeyCeremony,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.relyingParty = relyingPartyOf(config.http.publicBaseUrl);
    this.grantSeconds = config.auth.codeTtlSeconds;
  }

  /**
   * The offer after an e-mailed login, or null when there is none: passkeys off, the user at the
   * limit, or skipped on this device (unless the organization requires one and the user has none).
   */
  async offer(login: CompletedHere, skippedHere: boolean): Promise<RegistrationOffer | null> {
    const policy = login.context.organization.passkeys;
    if (!this.relyingParty.available || policy === 'off') return null;
    const now = this.clock.now();
    return this.transactions.run(async (manager) => {
      const existing = await this.passkeys.credentialIdsOfUser(login.userId, manager);
      if (existing.length >= MAX_PASSKEYS_PER_USER) return null;
      const skippable = policy !== 'required' || existing.length > 0;
      if (skippable && skippedHere) return null;
      const registrationId = await this.challenges.insertRegistrationGrant(manager, {
        organizationId: login.context.organization.id,
        applicationId: login.context.application.id,
        userId: login.userId,
        loginAttemptId: login.loginAttemptId,
        binding: registrationBinding(login.attemptCookie, login.csrfCookie),
        expiresAt: new Date(now.getTime() + this.grantSeconds * 1000),
        createdAt: now,
      });
      return { registrationId, skippable };
    });
  }

  /** A fresh challenge for the grant, as the browser's creation options. */
  async options(
    context: ClientContext,
    registrationId: string,
    browser: RegistrationBrowser,
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    this.requireOffered(context);
    const binding = this.bindingOf(browser);
    const challenge = randomBytes(32);
    const grant = await this.challenges.challengeRegistration(registrationId, binding, challenge.toString('base64url'), this.clock.now());
    if (!grant || grant.organizationId !== context.organization.id) throw notAllowed();
    const user = await this.users.find(grant.organizationId, grant.userId);
    if (!user || user.blocked) throw notAllowed();
    const existing = await this.passkeys.credentialIdsOfUser(user.id);
    return generateRegistrationOptions({
      rpName: context.organization.name,
      rpID: this.relyingParty.id,
      userName: user.email,
      userID: new Uint8Array(Buffer.from(userHandleOf(user.id), 'base64url')),
      userDisplayName: user.name ?? user.email,
      challenge: new Uint8Array(challenge),
      timeout: CEREMONY_TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: existing.map(({ credentialId, transports }) => ({ id: credentialId.toString('base64url'), transports })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      supportedAlgorithmIDs: ALGORITHMS,
    });
  }

  /**
   * Checks the authenticator's answer against the grant's current challenge (used once, whatever
   * the outcome: claimed in a transaction of its own) and stores the passkey: reported
   * (`passkey.registered`) and audited with the user as the actor, in one transaction, and the
   * grant is used up. Once that commits, the user
   * is e-mailed about the new passkey (an e-mailed login completed in someone else's browser would
   * otherwise become their lasting access unnoticed).
   */
  async verify(
    context: ClientContext,
    registrationId: string,
    response: RegistrationResponseJSON,
    browser: RegistrationBrowser,
  ): Promise<void> {
    this.requireOffered(context);
    const binding = this.bindingOf(browser);
    const now = this.clock.now();
    // The challenge is claimed in a transaction of its own: used once, also when storing then fails.
    const grant = await this.transactions.run((manager) =>
      this.challenges.claimRegistrationChallenge(manager, registrationId, binding, now),
    );
    if (!grant || grant.organizationId !== context.organization.id) throw notAllowed();
    const outcome = await this.transactions.run((manager) =>
      this.ceremony.register(manager, {
        owner: { tenantId: context.tenant.id, organizationId: grant.organizationId, userId: grant.userId },
        grantId: grant.id,
        expectedChallenge: grant.challenge!,
        party: { ...this.relyingParty, hostedId: this.relyingParty.id },
        response,
        browser,
        notAllowed,
        now,
      }),
    );
    if (outcome instanceof ProblemException) throw outcome;
    await this.ceremony.tellUser(outcome, browser.requestId);
  }

  private bindingOf(browser: RegistrationBrowser): Buffer {
    if (!browser.attemptCookie) throw notAllowed();
    return registrationBinding(browser.attemptCookie, browser.csrfCookie);
  }

  private requireOffered(context: ClientContext): void {
    if (!this.relyingParty.available || context.organization.passkeys === 'off')
      throw problem('passkeys_off', 'Passkeys are turned off for this organization');
  }
}

function notAllowed(): ProblemException {
  return problem('passkey_registration_not_allowed', 'A passkey can be added right after signing in with an e-mailed link or code, here.');
}
