import { Injectable, Logger } from '@nestjs/common';
import { verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { problem, ProblemException } from '@sesame/common';
import {
  PasskeyChallengeRepository,
  PasskeyCredential,
  PasskeyDeviceType,
  PasskeyOwner,
  PasskeyRepository,
  PasskeySummary,
  UserPasskeys,
  UserRepository,
} from '@sesame/entities';
import { MailProducer } from '@sesame/queue';
import { EntityManager } from 'typeorm';
import { describeUserAgent } from '../direct-auth/user-agent';

/** ES256, EdDSA and RS256: what platform authenticators and security keys make. */
export const ALGORITHMS = [-7, -8, -257];
/** At most this many passkeys a user: no registration is offered beyond it, and one beyond it is refused. */
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

/** The user handle a passkey is registered with: the user's id, as bytes, base64url (as the browser reports it). */
export function userHandleOf(userId: string): string {
  return Buffer.from(userId, 'utf8').toString('base64url');
}

/** Where a ceremony runs: its RP ID and the one origin it accepts; `hostedId` is the hosted page's RP ID (its passkeys have no rp_id). */
export interface CeremonyParty {
  id: string;
  origin: string;
  hostedId: string;
}

/** A registration answer to store: for whom, against which challenge and grant, from which browser. */
export interface RegistrationAnswer {
  owner: PasskeyOwner;
  grantId: string;
  expectedChallenge: string;
  party: CeremonyParty;
  response: RegistrationResponseJSON;
  browser: { userAgent: string | null; ip: string | null; requestId: string | null };
  /** The flow's refusal when the user may not register (blocked, gone, or the grant used meanwhile). */
  notAllowed: () => ProblemException;
  now: Date;
}

/**
 * The steps every passkey ceremony takes, whichever page runs it (the hosted page's or an
 * application's own): the library verifies, Sesame parses nothing but the credential id. A sign-in
 * finds the passkey only in the organization and under the ceremony's RP ID, locked with its user,
 * and only for the user it was registered to; a registration stores one passkey per grant, within
 * the per-user limit (the user's row locked), reported, audited, and e-mailed to the user.
 */
@Injectable()
export class PasskeyCeremony {
  private readonly logger = new Logger(PasskeyCeremony.name);

  constructor(
    private readonly passkeys: PasskeyRepository,
    private readonly users: UserRepository,
    private readonly challenges: PasskeyChallengeRepository,
    private readonly userPasskeys: UserPasskeys,
    private readonly mail: MailProducer,
  ) {}

  /** The passkey that signed this answer, its use recorded (in the sign-in's transaction); null: refused, one answer for every reason. */
  async verifySignIn(
    manager: EntityManager,
    organizationId: string,
    response: AuthenticationResponseJSON,
    expectedChallenge: string,
    party: CeremonyParty,
    now: Date,
  ): Promise<PasskeyCredential | null> {
    const credentialId = credentialIdOf(response);
    const passkey = credentialId ? await this.passkeys.lockForSignIn(manager, organizationId, credentialId, party) : null;
    if (!passkey) return null;
    // A passkey signs in the user it was registered to: the authenticator names that user too.
    const userHandle = response.response.userHandle;
    if (userHandle !== undefined && userHandle !== userHandleOf(passkey.userId)) return null;
    let verified;
    try {
      verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge,
        expectedOrigin: party.origin,
        expectedRPID: party.id,
        credential: { id: response.id, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.signCount },
        requireUserVerification: true,
      });
    } catch {
      // A bad signature, origin, RP ID or flags, or a sign count that went backwards (a cloned authenticator, as the library warns).
      return null;
    }
    if (!verified.verified) return null;
    const info = verified.authenticationInfo;
    await this.passkeys.recordUse(manager, passkey.id, {
      signCount: info.newCounter,
      backedUp: info.credentialBackedUp,
      deviceType: info.credentialDeviceType,
      at: now,
    });
    return passkey;
  }

  /** Verifies a registration answer and stores its passkey (in the registration's transaction), or the refusal. */
  async register(manager: EntityManager, answer: RegistrationAnswer): Promise<PasskeySummary | ProblemException> {
    const { owner, party, now } = answer;
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response: answer.response,
        expectedChallenge: answer.expectedChallenge,
        expectedOrigin: party.origin,
        expectedRPID: party.id,
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
    // The limit holds when the passkey is stored, not only when it was offered: the user's row is
    // locked first, so two grants (or two tabs) cannot both take the user's last place.
    const user = await this.users.findForUpdate(manager, owner.organizationId, owner.userId);
    if (!user || user.blocked) return answer.notAllowed();
    if ((await this.passkeys.credentialIdsOfUser(user.id, manager)).length >= MAX_PASSKEYS_PER_USER) return atTheLimit();
    const stored = await this.passkeys.insert(manager, {
      userId: user.id,
      credentialId,
      publicKey: Buffer.from(info.credential.publicKey),
      signCount: info.credential.counter,
      deviceType: info.credentialDeviceType as PasskeyDeviceType,
      backedUp: info.credentialBackedUp,
      transports: knownTransports(info.credential.transports),
      name: (describeUserAgent(answer.browser.userAgent) ?? 'Passkey').slice(0, 100),
      // The hosted page's passkeys keep no RP ID (they are the default); others are bound to theirs.
      rpId: party.id === party.hostedId ? null : party.id,
      createdAt: now,
    });
    if (stored === 'exists') return problem('passkey_exists', 'This passkey is already registered');
    if (stored === 'no_user') return answer.notAllowed();
    // One passkey a grant: of two answers to two of its challenges, the second finds it used and stores nothing.
    if (!(await this.challenges.useGrant(manager, answer.grantId, now))) throw answer.notAllowed();
    await this.userPasskeys.registered(
      manager,
      owner,
      user.email,
      stored,
      { type: 'user', id: user.id, name: user.email, ip: answer.browser.ip, requestId: answer.browser.requestId },
      now,
    );
    return stored;
  }

  /** After the registration commits: the user's e-mail about the new passkey (it stays registered if the e-mail cannot be queued). */
  async tellUser(passkey: PasskeySummary, requestId: string | null): Promise<void> {
    try {
      await this.mail.enqueuePasskeyRegistered(passkey.id, requestId);
    } catch (error) {
      this.logger.warn(
        `The e-mail about passkey ${passkey.id} registered by user ${passkey.userId} could not be queued: ${(error as Error).message}`,
      );
    }
  }
}

/** The credential id of an answer, when id and rawId agree and are base64url. */
function credentialIdOf(response: AuthenticationResponseJSON): Buffer | null {
  if (typeof response.id !== 'string' || response.id !== response.rawId || !/^[A-Za-z0-9_-]{1,1400}$/.test(response.id)) return null;
  return Buffer.from(response.id, 'base64url');
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
