import { Injectable, Optional } from '@nestjs/common';
import { ApprovalNumbers, Clock, isSecretShaped, normalizeApprovalNumber, problem, SesameMetrics, sha256 } from '@sesame/common';
import { effectiveStatus, LoginAttemptRepository, Transactions } from '@sesame/entities';
import { UsageCounter } from '@sesame/usage';
import { unknownLink } from './link-errors';
import { LoginAttemptEvents } from './login-attempt-events';
import { Completion, LoginCompletionService } from './login-completion.service';
import { LinkState } from './login-link.service';
import { describeUserAgent } from './user-agent';

/** The hosted page's cookie of the browser that asked for a link: it collects an approval from another device, and the link page knows it. */
export const ATTEMPT_COOKIE = 'sesame_attempt';

/** How long an approval waits for the requesting side to collect it. */
export const COLLECT_SECONDS = 600;

export interface ApprovalView {
  state: LinkState;
  organizationName: string;
  applicationName: string;
  email: string;
  /** Browser and system of the requesting side, when known. */
  requestedFrom: string | null;
  /** IP address of the requesting side, when known. */
  requestedIp: string | null;
  requestedAt: Date;
  /** False once a wrong number was typed: the link and the code still work, approval does not. */
  approvalOpen: boolean;
}

export type ApprovalOutcome = 'approved' | 'wrong_number' | 'approval_ended' | Exclude<LinkState, 'pending'>;

/**
 * "Sign in on the device where you asked": the person who opened the link on another device is
 * shown what asked and from where, and types the approval number that only the requesting screen
 * shows. The right number approves the attempt (its link and code are used up); the requesting
 * side then collects the login without a click. Holding the e-mail is not enough: the number is
 * never in it, so approving a request someone else started (a relayed one) needs that someone's
 * screen. A wrong number ends approval for the attempt (one guess in 90); its link and code still
 * work where the person is.
 */
@Injectable()
export class LoginApprovalService {
  constructor(
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly attempts: LoginAttemptRepository,
    private readonly numbers: ApprovalNumbers,
    private readonly completion: LoginCompletionService,
    private readonly events: LoginAttemptEvents,
    private readonly usage: UsageCounter,
    @Optional() private readonly metrics?: SesameMetrics,
  ) {}

  /** Read-only (mail scanners open every link and page). */
  async describe(token: unknown): Promise<ApprovalView> {
    if (!isSecretShaped(token)) throw unknownLink();
    const hash = sha256(token);
    const view = await this.attempts.findLinkView(hash);
    if (!view) throw unknownLink();
    return {
      state: linkState(effectiveStatus(view, this.clock.now())),
      organizationName: view.organizationName,
      applicationName: view.applicationName,
      email: view.email,
      requestedFrom: describeUserAgent(view.requesterUserAgent),
      requestedIp: view.requesterIp,
      requestedAt: view.createdAt,
      approvalOpen: view.approvalOpen,
    };
  }

  /**
   * The typed number, under a row lock (a link pressed or a code typed meanwhile takes turns with
   * it). A post without a number changes nothing (a bot submitting the page); a wrong number ends
   * approval for the attempt.
   */
  async approve(token: unknown, typed: unknown): Promise<{ outcome: ApprovalOutcome; organizationName: string | null }> {
    if (!isSecretShaped(token)) throw unknownLink();
    const approvalNumber = normalizeApprovalNumber(typed);
    if (approvalNumber === null) {
      throw problem('approval_number_required', 'Type the two-digit number shown on the screen where you asked to sign in.');
    }
    const now = this.clock.now();
    const result = await this.transactions.run(async (manager): Promise<{ outcome: ApprovalOutcome; id: string }> => {
      const attempt = await this.attempts.lockForApproval(manager, sha256(token));
      if (!attempt) throw unknownLink();
      const state = linkState(effectiveStatus(attempt, now));
      if (state !== 'pending') return { outcome: state, id: attempt.id };
      if (!attempt.approvalVerifier) return { outcome: 'approval_ended', id: attempt.id };
      if (!this.numbers.matches(attempt.tokenHash, approvalNumber, attempt.approvalVerifier)) {
        await this.attempts.endApproval(manager, attempt.id);
        return { outcome: 'wrong_number', id: attempt.id };
      }
      await this.attempts.approve(manager, attempt.id, now);
      return { outcome: 'approved', id: attempt.id };
    });
    if (result.outcome === 'approved') await this.events.changed(result.id);
    if (result.outcome === 'wrong_number') this.metrics?.loginsFailed.inc({ reason: 'wrong_approval_number' });
    const view = await this.attempts.findLinkView(sha256(token));
    return { outcome: result.outcome, organizationName: view?.organizationName ?? null };
  }

  /**
   * The requesting side collects an approved attempt, once: a code bound to the attempt's PKCE
   * challenge (and, for the hosted page's browser, an autologin walk where the organization has
   * one). Null when there is nothing to collect.
   */
  async collect(loginAttemptId: string, by: { applicationId: string } | { browserHash: Buffer }): Promise<Completion | null> {
    const now = this.clock.now();
    const completion = await this.transactions.run(async (manager) => {
      const claimed = await this.attempts.collectApproved(loginAttemptId, by, new Date(now.getTime() - COLLECT_SECONDS * 1000), manager);
      return claimed ? this.completion.complete(manager, claimed, now, { walk: 'browserHash' in by }) : null;
    });
    if (!completion) return null;
    await this.events.changed(loginAttemptId);
    if (completion.kind === 'blocked') {
      this.metrics?.loginsFailed.inc({ reason: 'access_denied' });
      return completion;
    }
    this.metrics?.loginsCompleted.inc();
    await this.usage.recordForOrganization(completion.organizationId, 'logins');
    return completion;
  }
}

function linkState(status: string): LinkState {
  if (status === 'pending') return 'pending';
  if (status === 'locked') return 'locked';
  if (status === 'completed' || status === 'approved') return 'used';
  return 'expired';
}
