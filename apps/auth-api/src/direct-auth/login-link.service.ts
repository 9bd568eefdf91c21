import { Injectable, Optional } from '@nestjs/common';
import {
  Clock,
  digestsEqual,
  isSecretShaped,
  LoginFailureReason,
  ProblemException,
  SesameMetrics,
  sha256,
  withQuery,
} from '@sesame/common';
import { AttemptSummary, ClaimedAttempt, effectiveStatus, LoginAttemptRepository, Transactions } from '@sesame/entities';
import { UsageCounter } from '@sesame/usage';
import { EntityManager } from 'typeorm';
import { StoredRedirectCheck } from '../clients/stored-redirect-check';
import { unknownLink } from './link-errors';
import { LoginAttemptEvents } from './login-attempt-events';
import type { CodeSuccess } from './login-code.service';
import { LoginCompletionService } from './login-completion.service';
import { LoginWebhookEvents } from './login-webhook-events';

export type LinkState = 'pending' | 'used' | 'expired' | 'locked';

export interface LinkDescription {
  state: LinkState;
  organizationName: string;
  applicationName: string;
  sentence: string;
  email: string;
  /** Origins the Continue form may end up redirecting to (for the page's form-action policy). */
  formTargets: string[];
  /** Whether this browser asked for the link (hosted page: its cookie); null when Sesame cannot tell (direct authentication). */
  startedHere: boolean | null;
  /** Whether the attempt can still be approved from another device. */
  approvalOpen: boolean;
}

/** Where a used link sends the browser, with the Set-Cookie of an autologin walk it starts. */
export interface LinkRedirect {
  url: string;
  cookie?: string;
  /** The login, when the link completed it in the browser that asked for it (the hosted page's cookie). */
  completedHere?: { completion: CodeSuccess; applicationId: string };
}

/**
 * Whether the browser holding `browserCookie` (the hosted page's `sesame_attempt`) asked for the
 * attempt; null when Sesame cannot tell (direct authentication keeps no browser).
 */
function askedHere(attempt: Pick<AttemptSummary, 'flow' | 'requesterBrowserHash'>, browserCookie: string | undefined): boolean | null {
  if (attempt.flow !== 'hosted' || !attempt.requesterBrowserHash) return null;
  return Boolean(browserCookie && digestsEqual(sha256(browserCookie), attempt.requesterBrowserHash));
}

/** Where a used link sends the browser, and why the login failed if it did (or whose login it completed). */
interface LinkOutcome extends LinkRedirect {
  failure?: LoginFailureReason;
  organizationId?: string;
  /** The attempt this request completed (its waiters are told). */
  attemptId?: string;
}

/** The e-mailed link: shown by GET (never used by it), used once by POST. */
@Injectable()
export class LoginLinkService {
  constructor(
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly attempts: LoginAttemptRepository,
    private readonly completion: LoginCompletionService,
    private readonly events: LoginAttemptEvents,
    private readonly loginEvents: LoginWebhookEvents,
    private readonly redirects: StoredRedirectCheck,
    private readonly usage: UsageCounter,
    @Optional() private readonly metrics?: SesameMetrics,
  ) {}

  /** Read-only: mail scanners open every link, so looking must never consume it. */
  async describe(token: unknown, browserCookie?: string): Promise<LinkDescription> {
    if (!isSecretShaped(token)) throw unknownLink();
    const view = await this.attempts.findLinkView(sha256(token));
    if (!view) throw unknownLink();
    return {
      state: this.linkState(view),
      organizationName: view.organizationName,
      applicationName: view.applicationName,
      sentence: view.sentence,
      email: view.email,
      // With autologin the first redirect may go to any of the organization's domains.
      formTargets: [view.redirectUri, ...(view.autologin ? view.whitelistDomains.filter((origin) => !origin.includes('*')) : [])],
      startedHere: askedHere(view, browserCookie),
      approvalOpen: view.approvalOpen,
    };
  }

  /**
   * Uses the link once, atomically: the first request wins, any other finds it used. On success
   * the user is created on first login, the address's backoff is reset, and a code is issued.
   * Returns where to send the browser; failures also go back to the application, with an error.
   * The stored redirect_uri is checked again first: one the application no longer allows gets
   * an error page, and the link stays as it was. `browserCookie`, the hosted page's cookie, tells
   * whether this browser asked for the login.
   */
  async use(token: unknown, browserCookie?: string): Promise<LinkRedirect> {
    if (!isSecretShaped(token)) {
      this.metrics?.loginsFailed.inc({ reason: 'unknown_link' });
      throw unknownLink();
    }
    const hash = sha256(token);
    const now = this.clock.now();
    const outcome = await this.transactions
      .run(async (manager) => {
        // Of concurrent requests exactly one claims the attempt.
        const attempt = await this.attempts.claimByTokenHash(manager, hash, now);
        return attempt ? this.complete(manager, attempt, now, browserCookie) : this.refuse(manager, hash, now);
      })
      .catch((error: unknown) => {
        if (error instanceof ProblemException && error.code === 'unknown_login_link')
          this.metrics?.loginsFailed.inc({ reason: 'unknown_link' });
        throw error;
      });
    // Counted once the transaction has committed.
    if (outcome.failure) this.metrics?.loginsFailed.inc({ reason: outcome.failure });
    else this.metrics?.loginsCompleted.inc();
    if (outcome.organizationId) await this.usage.recordForOrganization(outcome.organizationId, 'logins');
    if (outcome.attemptId) await this.events.changed(outcome.attemptId);
    return { url: outcome.url, cookie: outcome.cookie, completedHere: outcome.completedHere };
  }

  private async complete(manager: EntityManager, attempt: ClaimedAttempt, now: Date, browserCookie?: string): Promise<LinkOutcome> {
    const completion = await this.completion.complete(manager, attempt, now, { walk: true });
    if (completion.kind === 'blocked') return { url: completion.url, failure: 'access_denied' };
    return {
      url: completion.url,
      cookie: completion.kind === 'walk' ? completion.cookie : undefined,
      completedHere: askedHere(attempt, browserCookie) ? { completion, applicationId: attempt.applicationId } : undefined,
      organizationId: completion.organizationId,
      attemptId: attempt.id,
    };
  }

  /** A link of an attempt that is no longer pending: back to the application with an error, reported as `login.failed`. */
  private async refuse(manager: EntityManager, hash: Buffer, now: Date): Promise<LinkOutcome> {
    const attempt = await this.attempts.findByTokenHash(manager, hash);
    if (!attempt) throw unknownLink();
    await this.redirects.require(manager, attempt.applicationId, attempt.redirectUri);
    const refusal = this.refusal(attempt);
    await this.loginEvents.failed(manager, attempt, refusal.failure, now);
    return refusal;
  }

  private refusal(attempt: AttemptSummary): LinkOutcome & { failure: LoginFailureReason } {
    const state = this.linkState(attempt);
    if (state === 'used')
      return { url: errorRedirect(attempt, 'login_link_used', 'This login link has already been used'), failure: 'login_link_used' };
    if (state === 'locked')
      return {
        url: errorRedirect(attempt, 'login_attempt_locked', 'Too many wrong codes were entered for this sign-in'),
        failure: 'login_attempt_locked',
      };
    return { url: errorRedirect(attempt, 'login_link_expired', 'This login link has expired'), failure: 'login_link_expired' };
  }

  private linkState(attempt: Pick<AttemptSummary, 'status' | 'expiresAt'>): LinkState {
    const status = effectiveStatus(attempt, this.clock.now());
    if (status === 'completed' || status === 'approved') return 'used';
    if (status === 'locked') return 'locked';
    return status === 'pending' ? 'pending' : 'expired';
  }
}

function errorRedirect(attempt: Pick<AttemptSummary, 'redirectUri' | 'state'>, error: string, description: string): string {
  return withQuery(attempt.redirectUri, { error, error_description: description, state: attempt.state });
}
