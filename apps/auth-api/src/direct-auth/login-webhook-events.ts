import { Injectable } from '@nestjs/common';
import { LoginFailureReason } from '@sesame/common';
import { ClaimedAttempt, LoginAttemptRepository, WebhookEventRepository } from '@sesame/entities';
import { EntityManager } from 'typeorm';

/** The attempt fields the login's events carry. */
type ReportedAttempt = Pick<ClaimedAttempt, 'id' | 'organizationId' | 'applicationId' | 'email' | 'flow'>;

/** `login.failed`'s reasons, of the refusals that report one (a wrong code does not: its fifth sends `login.locked`). */
const FAILED_BECAUSE: Partial<Record<LoginFailureReason, string>> = {
  login_link_expired: 'expired',
  login_link_used: 'used',
  login_attempt_locked: 'locked',
  access_denied: 'blocked',
};

/**
 * The webhook events of a login, each written in the transaction of what it reports: `user.created`
 * on a first login and `user.signed_in` on every one, `login.failed` the first time a link or code
 * of a stopped attempt is used (or the user is blocked), `login.locked` when wrong codes stop one.
 */
@Injectable()
export class LoginWebhookEvents {
  constructor(
    private readonly events: WebhookEventRepository,
    private readonly attempts: LoginAttemptRepository,
  ) {}

  async signedIn(manager: EntityManager, attempt: ReportedAttempt, user: { id: string; created: boolean }, now: Date): Promise<void> {
    const scope = { organizationId: attempt.organizationId };
    const subject = { id: user.id, email: attempt.email, organizationId: attempt.organizationId };
    const signedIn = {
      type: 'user.signed_in',
      scope,
      data: {
        user: subject,
        applicationId: attempt.applicationId,
        loginAttemptId: attempt.id,
        flow: attempt.flow,
        signedInAt: now.toISOString(),
      },
    };
    await this.events.record(
      manager,
      ...(user.created ? [{ type: 'user.created', scope, data: { user: subject } }, signedIn] : [signedIn]),
    );
  }

  /** Once per attempt: whoever holds a stopped attempt's link or code cannot make it an endless stream of events. */
  async failed(manager: EntityManager, attempt: ReportedAttempt, failure: LoginFailureReason, now: Date): Promise<void> {
    const reason = FAILED_BECAUSE[failure];
    if (reason && (await this.attempts.markFailureReported(manager, attempt.id, now)))
      await this.record(manager, 'login.failed', attempt, { reason, failedAt: now.toISOString() });
  }

  async locked(manager: EntityManager, attempt: ReportedAttempt, now: Date): Promise<void> {
    await this.record(manager, 'login.locked', attempt, { lockedAt: now.toISOString() });
  }

  private async record(manager: EntityManager, type: string, attempt: ReportedAttempt, fields: Record<string, string>): Promise<void> {
    await this.events.record(manager, {
      type,
      scope: { organizationId: attempt.organizationId },
      data: {
        loginAttemptId: attempt.id,
        email: attempt.email,
        organizationId: attempt.organizationId,
        applicationId: attempt.applicationId,
        flow: attempt.flow,
        ...fields,
      },
    });
  }
}
