import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  Clock,
  LoginCodes,
  LoginFailureReason,
  normalizeLoginCode,
  notFound,
  problem,
  ProblemException,
  SESAME_CONFIG,
  SesameConfig,
  SesameMetrics,
} from '@sesame/common';
import {
  CODE_FAILURE_LIMIT,
  CodeCheck,
  effectiveStatus,
  EmailThrottleRepository,
  LoginAttemptRepository,
  Transactions,
} from '@sesame/entities';
import { EntityManager } from 'typeorm';
import { UsageCounter } from '@sesame/usage';
import { LoginAttemptEvents } from './login-attempt-events';
import { Completion, LoginCompletionService } from './login-completion.service';
import { LoginWebhookEvents } from './login-webhook-events';
import { Requester, requestedBy } from './requester';

/** Wrong codes for an address are counted over this window, across its attempts. */
const ADDRESS_WINDOW_MS = 24 * 3600 * 1000;

export type CodeSuccess = Exclude<Completion, { kind: 'blocked' }>;

type Refusal = { failure: LoginFailureReason; error: ProblemException };

/**
 * The 6-digit code of a login e-mail, typed where the login started (only there: the application
 * that started it, or the browser that asked on the hosted page). The code and the link are one
 * credential: both claim the same pending attempt, so the first used wins. Each wrong code counts
 * twice: on the attempt, whose fifth locks it and its link, and on the address across attempts,
 * where LOGIN_CODE_FAILURES_PER_ADDRESS within 24 hours disable its codes until one of its links is used.
 */
@Injectable()
export class LoginCodeService {
  constructor(
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly attempts: LoginAttemptRepository,
    private readonly throttles: EmailThrottleRepository,
    private readonly codes: LoginCodes,
    private readonly completion: LoginCompletionService,
    private readonly events: LoginAttemptEvents,
    private readonly loginEvents: LoginWebhookEvents,
    private readonly usage: UsageCounter,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
    @Optional() private readonly metrics?: SesameMetrics,
  ) {}

  /** Direct authentication: the application's server passes on the code; the answer is the code the link would have delivered. */
  async useDirect(
    applicationId: string,
    loginAttemptId: string,
    typed: unknown,
  ): Promise<{ code: string; state: string; redirectUri: string }> {
    const success = await this.use(loginAttemptId, typed, applicationId, { applicationId }, { walk: false });
    if (success.kind !== 'code') throw new Error('A login code without a walk completed with a walk');
    return { code: success.code, state: success.state, redirectUri: success.redirectUri };
  }

  /**
   * Uses the attempt if `typed` is its code. The attempt's row is locked first, so concurrent
   * codes (and a link pressed meanwhile) take turns; a wrong try is counted even though the
   * answer is an error (the transaction commits first, then the error is thrown).
   */
  async use(
    loginAttemptId: string,
    typed: unknown,
    applicationId: string,
    by: Requester,
    options: { walk: boolean },
  ): Promise<CodeSuccess> {
    const code = normalizeLoginCode(typed);
    if (code === null) throw problem('invalid_request', 'code must be the 6 digits of the e-mail');
    const now = this.clock.now();
    const outcome = await this.transactions.run(async (manager): Promise<Completion | Refusal> => {
      const attempt = await this.attempts.lockForCode(manager, loginAttemptId, applicationId);
      if (!attempt || !requestedBy(attempt, by)) throw notFound('login attempt');
      const status = effectiveStatus(attempt, now);
      if (status !== 'pending') return this.refused(manager, attempt, stopped(status), now);
      if ((await this.throttles.lockCodes(manager, attempt.organizationId, attempt.email)).disabled) return codesDisabled();
      if (!this.codes.matches(attempt.tokenHash, code, attempt.codeVerifier)) {
        const attemptStatus = await this.attempts.recordWrongCode(manager, attempt.id);
        const windowStart = new Date(now.getTime() - ADDRESS_WINDOW_MS);
        await this.throttles.recordWrongCode(
          manager,
          attempt.organizationId,
          attempt.email,
          now,
          windowStart,
          this.config.auth.codeFailuresPerAddress,
        );
        if (attemptStatus !== 'locked') return wrongCode();
        await this.loginEvents.locked(manager, attempt, now);
        return stopped('locked');
      }
      const claimed = await this.attempts.claimById(manager, attempt.id, now);
      if (!claimed) return this.refused(manager, attempt, stopped('completed'), now);
      return this.completion.complete(manager, claimed, now, options);
    });
    if ('error' in outcome) {
      this.metrics?.loginsFailed.inc({ reason: outcome.failure });
      if (outcome.error.code === 'login_attempt_locked') await this.events.changed(loginAttemptId);
      throw outcome.error;
    }
    await this.events.changed(loginAttemptId);
    if (outcome.kind === 'blocked') {
      this.metrics?.loginsFailed.inc({ reason: 'access_denied' });
      throw problem('access_denied', 'This account is blocked');
    }
    this.metrics?.loginsCompleted.inc();
    await this.usage.recordForOrganization(outcome.organizationId, 'logins');
    return outcome;
  }

  /** A code for an attempt that is no longer pending: the refusal, reported as `login.failed` in the transaction. */
  private async refused(manager: EntityManager, attempt: CodeCheck, refusal: Refusal, now: Date): Promise<Refusal> {
    await this.loginEvents.failed(manager, attempt, refusal.failure, now);
    return refusal;
  }
}

function wrongCode(): Refusal {
  return {
    failure: 'invalid_login_code',
    error: problem('invalid_login_code', `This code is not right; after ${CODE_FAILURE_LIMIT} wrong codes the sign-in is stopped`),
  };
}

/** Says nothing of whether the address has a user: every address's wrong codes are counted alike. */
function codesDisabled(): Refusal {
  return {
    failure: 'login_code_disabled',
    error: problem(
      'login_code_disabled',
      'Too many wrong codes for this address: sign in with the link of the e-mail instead (codes work again once a link was used)',
    ),
  };
}

function stopped(status: string): Refusal {
  if (status === 'locked') {
    return {
      failure: 'login_attempt_locked',
      error: problem('login_attempt_locked', 'Too many wrong codes: this sign-in is stopped, and its link too. Start again.'),
    };
  }
  if (status === 'completed')
    return { failure: 'login_link_used', error: problem('login_link_used', 'This sign-in was already completed with its link or code') };
  return { failure: 'login_link_expired', error: problem('login_link_expired', 'This sign-in has expired') };
}
