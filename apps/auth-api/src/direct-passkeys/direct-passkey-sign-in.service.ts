import { Injectable, Optional } from '@nestjs/common';
import { generateAuthenticationOptions } from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { allowedRedirect, Clock, problem, ProblemException, SesameMetrics } from '@sesame/common';
import { LoginAttemptRepository, PasskeyChallengeRepository, Transactions } from '@sesame/entities';
import { UsageCounter } from '@sesame/usage';
import { EntityManager } from 'typeorm';
import { Completion, LoginCompletionService } from '../direct-auth/login-completion.service';
import { LoginCodeResponse } from '../direct-auth/dto/login-code.dto';
import { challengeOfClientData } from '../login-page/passkey-binding';
import { SIGN_IN_CHALLENGE_SECONDS } from '../login-page/passkey-sign-in.service';
import { PasskeyCeremony } from '../passkeys/passkey-ceremony';
import { DirectPasskeyCaller } from './direct-passkey-context';
import { DirectSignInRequest, directSignInBinding } from './direct-passkey-binding';

/** What the browser is told to wait, at most, for the person. */
const CEREMONY_TIMEOUT_MS = 300_000;

/** A direct passkey sign-in: the login (as authenticate_direct's), and who the end user is. */
export interface DirectSignIn {
  redirectUri: string;
  state: string;
  codeChallenge: string;
  nonce: string | null;
  requestId: string | null;
  userAgent: string | null;
  ip: string | null;
}

/**
 * Signing in with a passkey on an application's own page (direct authentication). The options
 * carry a one-time challenge bound to the application, the page's origin and the login (state,
 * redirect_uri, PKCE challenge, nonce); discoverable credentials only, so nothing tells who has
 * one. A verified assertion completes the login as a used e-mail code does (LoginCompletionService:
 * the redirect_uri checked again, user.signed_in, a code bound to the PKCE challenge), recorded as
 * a completed login attempt (flow direct) that names the passkey. A passkey signs in only under the
 * RP ID it was registered under: the page's host (a hosted page's passkey, where that is also the
 * hosted page's host).
 */
@Injectable()
export class DirectPasskeySignInService {
  constructor(
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly challenges: PasskeyChallengeRepository,
    private readonly ceremony: PasskeyCeremony,
    private readonly attempts: LoginAttemptRepository,
    private readonly completion: LoginCompletionService,
    private readonly usage: UsageCounter,
    @Optional() private readonly metrics?: SesameMetrics,
  ) {}

  async options(caller: DirectPasskeyCaller, login: DirectSignIn): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const request = this.checkedRequest(caller, login);
    const options = await generateAuthenticationOptions({
      rpID: caller.relyingParty.id,
      userVerification: 'required',
      timeout: CEREMONY_TIMEOUT_MS,
    });
    const now = this.clock.now();
    await this.challenges.insertSignIn({
      organizationId: caller.context.organization.id,
      applicationId: caller.context.application.id,
      binding: directSignInBinding(request),
      challenge: options.challenge,
      expiresAt: new Date(now.getTime() + SIGN_IN_CHALLENGE_SECONDS * 1000),
      createdAt: now,
    });
    return options;
  }

  /**
   * Uses the challenge the answer names, once (also when the answer then fails: it is claimed in a
   * transaction of its own, committed before the answer is checked), checks the answer against the organization's passkey of
   * that credential under this page's RP ID, and completes the login: the code, as POST
   * /v1/login_code answers it.
   */
  async verify(caller: DirectPasskeyCaller, login: DirectSignIn, response: AuthenticationResponseJSON): Promise<LoginCodeResponse> {
    const request = this.checkedRequest(caller, login);
    const challenge = challengeOfClientData(response?.response?.clientDataJSON);
    if (!challenge) throw refused();
    const now = this.clock.now();
    // The claim commits on its own first: neither a refusal nor an error afterwards (a redirect_uri
    // no longer allowed, a database error) gives the challenge back.
    const claimed = await this.transactions.run((manager) =>
      this.challenges.claimSignIn(manager, challenge, directSignInBinding(request), request.applicationId, now),
    );
    if (!claimed) throw invalidChallenge();
    const outcome = await this.transactions.run((manager): Promise<Completion | ProblemException> =>
      this.signIn(manager, caller, login, response, claimed.challenge, now),
    );
    if (outcome instanceof ProblemException) throw outcome;
    if (outcome.kind !== 'code') {
      // The user was blocked between the passkey's lookup and the login (a walk never starts: walk is false).
      this.metrics?.loginsFailed.inc({ reason: 'access_denied' });
      throw refused();
    }
    this.metrics?.loginsCompleted.inc();
    await this.usage.recordForOrganization(outcome.organizationId, 'logins');
    return { code: outcome.code, state: outcome.state, redirectUri: outcome.redirectUri };
  }

  private async signIn(
    manager: EntityManager,
    caller: DirectPasskeyCaller,
    login: DirectSignIn,
    response: AuthenticationResponseJSON,
    expectedChallenge: string,
    now: Date,
  ): Promise<Completion | ProblemException> {
    const { context, relyingParty } = caller;
    const passkey = await this.ceremony.verifySignIn(manager, context.organization.id, response, expectedChallenge, relyingParty, now);
    if (!passkey) return refused();
    const attempt = await this.attempts.insertPasskeyLogin(manager, {
      organizationId: context.organization.id,
      applicationId: context.application.id,
      email: passkey.email,
      state: login.state,
      redirectUri: login.redirectUri,
      codeChallenge: login.codeChallenge,
      nonce: login.nonce,
      passkeyId: passkey.id,
      requestId: login.requestId,
      requesterUserAgent: login.userAgent,
      requesterIp: login.ip,
      now,
      flow: 'direct',
    });
    return this.completion.complete(manager, attempt, now, { walk: false });
  }

  /** The login's request, once its redirect_uri is one the application may use (as authenticate_direct checks it). */
  private checkedRequest(caller: DirectPasskeyCaller, login: DirectSignIn): DirectSignInRequest {
    const { context, relyingParty } = caller;
    if (!allowedRedirect({ ...context.application, whitelistDomains: context.organization.whitelistDomains }, login.redirectUri)) {
      throw problem(
        'invalid_request',
        'redirect_uri is not allowed for this application: its origin must be a whitelist domain (and it must equal a registered callback URL, if any)',
      );
    }
    return {
      applicationId: context.application.id,
      origin: relyingParty.origin,
      redirectUri: login.redirectUri,
      state: login.state,
      codeChallenge: login.codeChallenge,
      nonce: login.nonce,
    };
  }
}

function refused(): ProblemException {
  return problem('passkey_refused', 'This passkey cannot sign you in here.');
}

function invalidChallenge(): ProblemException {
  return problem('passkey_challenge_invalid', 'This passkey request has expired or was already used. Ask for new options.');
}
