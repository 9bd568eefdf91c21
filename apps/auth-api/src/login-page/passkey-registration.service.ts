import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Clock, problem, ProblemException, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import {
  ClientContext,
  PasskeyChallengeRepository,
  PasskeyDeviceType,
  PasskeyRepository,
  RegistrationGrant,
  Transactions,
  UserPasskeys,
  PasskeySummary,
  UserRepository,
} from '@sesame/entities';
import { MailProducer } from '@sesame/queue';
import { EntityManager } from 'typeorm';
import { describeUserAgent } from '../direct-auth/user-agent';
import { registrationBinding } from './passkey-binding';
import { userHandleOf } from './passkey-sign-in.service';
import { RelyingParty, relyingPartyOf } from './relying-party';

/** ES256, EdDSA and RS256: what platform authenticators and security keys make. */
const ALGORITHMS = [-7, -8, -257];
const CEREMONY_TIMEOUT_MS = 300_000;
/** At most this many passkeys a user: the registration offer is not shown beyond it, and a registration beyond it is refused. */
export const MAX_PASSKEYS_PER_USER = 20;
/** WebAuthn's limit on a credential id (Web Authentication Level 3, §5.1: at most 1023 bytes). */
export const MAX_CREDENTIAL_ID_BYTES = 1023;
/** The transports WebAuthn names (AuthenticatorTransport, and `cable`, hybrid's former name); anything else an answer reports is dropped. */
export const KNOWN_TRANSPORTS: readonly string[] = ['usb', 'nfc', 'ble', 'internal', 'hybrid', 'cable', 'smart-card'];

/** The known transports of an answer, each once, in its order; nothing for anything but an array. */
export function knownTransports(reported: unknown): string[] {
  if (!Array.isArray(reported)) return [];
  return [
    ...new Set(reported.filter((transport): transport is string => typeof transport === 'string' && KNOWN_TRANSPORTS.includes(transport))),
  ];
}

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
  private readonly logger = new Logger(PasskeyRegistrationService.name);
  private readonly relyingParty: RelyingParty;
  private readonly grantSeconds: number;

  constructor(
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly challenges: PasskeyChallengeRepository,
    private readonly passkeys: PasskeyRepository,
    private readonly users: UserRepository,
    private readonly userPasskeys: UserPasskeys,
    private readonly mail: MailProducer,
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
    const outcome = await this.transactions.run((manager): Promise<ProblemException | PasskeySummary> =>
      this.register(manager, context, grant, response, browser, now),
    );
    if (outcome instanceof ProblemException) throw outcome;
    await this.tellUser(outcome, browser.requestId);
  }

  /** The user's e-mail about the new passkey; the passkey is registered whether or not it can be queued (the audit log and the webhook event say so too). */
  private async tellUser(passkey: PasskeySummary, requestId: string | null): Promise<void> {
    try {
      await this.mail.enqueuePasskeyRegistered(passkey.id, requestId);
    } catch (error) {
      this.logger.warn(
        `The e-mail about passkey ${passkey.id} registered by user ${passkey.userId} could not be queued: ${(error as Error).message}`,
      );
    }
  }

  private async register(
    manager: EntityManager,
    context: ClientContext,
    grant: RegistrationGrant,
    response: RegistrationResponseJSON,
    browser: RegistrationBrowser,
    now: Date,
  ): Promise<ProblemException | PasskeySummary> {
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: grant.challenge!,
        expectedOrigin: this.relyingParty.origin,
        expectedRPID: this.relyingParty.id,
        requireUserVerification: true,
        supportedAlgorithmIDs: ALGORITHMS,
      });
    } catch {
      return refusedRegistration();
    }
    if (!verified.verified) return refusedRegistration();
    const info = verified.registrationInfo;
    const credentialId = Buffer.from(info.credential.id, 'base64url');
    if (credentialId.length > MAX_CREDENTIAL_ID_BYTES) return refusedRegistration();
    // The limit holds when the passkey is stored, not only when the offer was made: the user's row
    // is locked first, so two offers (or two tabs) cannot both register the user's last place.
    const user = await this.users.findForUpdate(manager, grant.organizationId, grant.userId);
    if (!user || user.blocked) return notAllowed();
    if ((await this.passkeys.credentialIdsOfUser(user.id, manager)).length >= MAX_PASSKEYS_PER_USER) return atTheLimit();
    const stored = await this.passkeys.insert(manager, {
      userId: grant.userId,
      credentialId,
      publicKey: Buffer.from(info.credential.publicKey),
      signCount: info.credential.counter,
      deviceType: info.credentialDeviceType as PasskeyDeviceType,
      backedUp: info.credentialBackedUp,
      transports: knownTransports(info.credential.transports),
      name: (describeUserAgent(browser.userAgent) ?? 'Passkey').slice(0, 100),
      createdAt: now,
    });
    if (stored === 'exists') return problem('passkey_exists', 'This passkey is already registered');
    if (stored === 'no_user') return notAllowed();
    // One passkey a grant: of two answers to two of its challenges, the second finds it used and stores nothing.
    if (!(await this.challenges.useGrant(manager, grant.id, now))) throw notAllowed();
    await this.userPasskeys.registered(
      manager,
      { tenantId: context.tenant.id, organizationId: grant.organizationId, userId: grant.userId },
      user.email,
      stored,
      { type: 'user', id: grant.userId, name: user.email, ip: browser.ip, requestId: browser.requestId },
      now,
    );
    return stored;
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

function atTheLimit(): ProblemException {
  return problem(
    'passkey_registration_not_allowed',
    `This account already has ${MAX_PASSKEYS_PER_USER} passkeys, the most it may have: ask your administrator to remove one first.`,
  );
}

function refusedRegistration(): ProblemException {
  return problem('passkey_refused', 'The passkey could not be created. Try again.');
}
