import { Inject, Injectable, Optional } from '@nestjs/common';
import { generateAuthenticationOptions } from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { Clock, problem, ProblemException, SESAME_CONFIG, SesameConfig, SesameMetrics } from '@sesame/common';
import { ClientContext, LoginAttemptRepository, PasskeyChallengeRepository, Transactions } from '@sesame/entities';
import { UsageCounter } from '@sesame/usage';
import { EntityManager } from 'typeorm';
import { Completion, LoginCompletionService } from '../direct-auth/login-completion.service';
import { PasskeyCeremony } from '../passkeys/passkey-ceremony';
import { AuthorizeRequest } from './authorize-request';
import { challengeOfClientData, signInBinding } from './passkey-binding';
import { RelyingParty, relyingPartyOf } from './relying-party';

/** How long a sign-in challenge is good for: the browser's prompt (or autofill) may wait a while for the person. */
export const SIGN_IN_CHALLENGE_SECONDS = 600;
/** What the browser is told to wait, at most, for the person. */
const CEREMONY_TIMEOUT_MS = 300_000;

/** Where the browser goes once signed in: the callback with code and state, or an autologin walk's first stop (with its cookie). */
export interface PasskeySignedIn {
  redirect: string;
  cookie?: string;
}

/** The browser and request a passkey sign-in comes from. */
export interface PasskeySignInRequest {
  context: ClientContext;
  request: AuthorizeRequest;
  csrfCookie: string;
  requestId: string | null;
  userAgent: string | null;
  ip: string | null;
}

/**
 * Signing in with a passkey on the hosted page. The options carry a one-time challenge bound to
 * this browser and authorize request (discoverable credentials: no list of passkeys, so nothing
 * tells who has one). A verified assertion completes the login the way a used e-mailed link does
 * (LoginCompletionService: the redirect_uri checked again, user.signed_in, a code bound to the
 * request's PKCE challenge), recorded as a completed login attempt that names the passkey.
 */
@Injectable()
export class PasskeySignInService {
  readonly relyingParty: RelyingParty;

  constructor(
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly challenges: PasskeyChallengeRepository,
    private readonly ceremony: PasskeyCeremony,
    private readonly attempts: LoginAttemptRepository,
    private readonly completion: LoginCompletionService,
    private readonly usage: UsageCounter,
    @Inject(SESAME_CONFIG) config: SesameConfig,
    @Optional() private readonly metrics?: SesameMetrics,
  ) {
    this.relyingParty = relyingPartyOf(config.http.publicBaseUrl);
  }

  /** Whether the hosted page of this organization offers passkeys at all. */
  offered(context: ClientContext): boolean {
    return this.relyingParty.available && context.organization.passkeys !== 'off';
  }

  async options(from: PasskeySignInRequest): Promise<PublicKeyCredentialRequestOptionsJSON> {
    this.requireOffered(from.context);
    const options = await generateAuthenticationOptions({
      rpID: this.relyingParty.id,
      userVerification: 'required',
      timeout: CEREMONY_TIMEOUT_MS,
    });
    const now = this.clock.now();
    await this.challenges.insertSignIn({
      organizationId: from.context.organization.id,
      applicationId: from.context.application.id,
      binding: signInBinding(from.csrfCookie, from.request),
      challenge: options.challenge,
      expiresAt: new Date(now.getTime() + SIGN_IN_CHALLENGE_SECONDS * 1000),
      createdAt: now,
    });
    return options;
  }

  /**
   * Uses the challenge the answer names, once (also when the answer then fails: it is claimed in a
   * transaction of its own, committed before the answer is looked at, so neither a refusal nor an
   * error of the completion gives it back), checks the answer with the library against the
   * organization's passkey of that credential, and completes the login.
   */
  async verify(from: PasskeySignInRequest, response: AuthenticationResponseJSON): Promise<PasskeySignedIn> {
    this.requireOffered(from.context);
    const challenge = challengeOfClientData(response.response?.clientDataJSON);
    if (!challenge) throw refused();
    const now = this.clock.now();
    const binding = signInBinding(from.csrfCookie, from.request);
    const claimed = await this.transactions.run((manager) =>
      this.challenges.claimSignIn(manager, challenge, binding, from.context.application.id, now),
    );
    if (!claimed) throw invalidChallenge();
    const outcome = await this.transactions.run((manager): Promise<Completion | ProblemException> =>
      this.signIn(manager, from, response, claimed.challenge, now),
    );
    if (outcome instanceof ProblemException) throw outcome;
    if (outcome.kind === 'blocked') {
      this.metrics?.loginsFailed.inc({ reason: 'access_denied' });
      return { redirect: outcome.url };
    }
    this.metrics?.loginsCompleted.inc();
    await this.usage.recordForOrganization(outcome.organizationId, 'logins');
    return { redirect: outcome.url, cookie: outcome.kind === 'walk' ? outcome.cookie : undefined };
  }

  private async signIn(
    manager: EntityManager,
    from: PasskeySignInRequest,
    response: AuthenticationResponseJSON,
    expectedChallenge: string,
    now: Date,
  ): Promise<Completion | ProblemException> {
    const party = { ...this.relyingParty, hostedId: this.relyingParty.id };
    const passkey = await this.ceremony.verifySignIn(manager, from.context.organization.id, response, expectedChallenge, party, now);
    if (!passkey) return refused();
    const attempt = await this.attempts.insertPasskeyLogin(manager, {
      organizationId: from.context.organization.id,
      applicationId: from.context.application.id,
      email: passkey.email,
      state: from.request.state,
      redirectUri: from.request.redirectUri,
      codeChallenge: from.request.codeChallenge,
      nonce: from.request.nonce,
      passkeyId: passkey.id,
      requestId: from.requestId,
      requesterUserAgent: from.userAgent,
      requesterIp: from.ip,
      now,
    });
    return this.completion.complete(manager, attempt, now, { walk: true });
  }

  private requireOffered(context: ClientContext): void {
    if (!this.offered(context)) throw problem('passkeys_off', 'Passkeys are turned off for this organization');
  }
}

function refused(): ProblemException {
  return problem('passkey_refused', 'This passkey cannot sign you in here. Use your e-mail address instead.');
}

function invalidChallenge(): ProblemException {
  return problem('passkey_challenge_invalid', 'This passkey request has expired or was already used. Try again.');
}
