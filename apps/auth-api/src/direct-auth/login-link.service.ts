import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Clock, isSecretShaped, LoginFailureReason, ProblemException, SesameMetrics, sha256, withQuery } from '@sesame/common';
import { AttemptSummary, ClaimedAttempt, effectiveStatus, EmailThrottleRepository, LoginAttemptRepository } from '@sesame/entities';
import { UsageCounter } from '@sesame/usage';
import { DataSource, EntityManager } from 'typeorm';
import { StoredRedirectCheck } from '../clients/stored-redirect-check';
import { AuthorizationCodeService } from '../tokens/authorization-code.service';
import { AutologinService, CompletedLogin } from './autologin.service';
import { unknownLink } from './link-errors';

export type LinkState = 'pending' | 'used' | 'expired';

export interface LinkDescription {
  state: LinkState;
  organizationName: string;
  applicationName: string;
  sentence: string;
  email: string;
  /** Origins the Continue form may end up redirecting to (for the page's form-action policy). */
  formTargets: string[];
}

/** Where a used link sends the browser, with the Set-Cookie of an autologin walk it starts. */
export interface LinkRedirect {
  url: string;
  cookie?: string;
}

/** Where a used link sends the browser, and why the login failed if it did (or whose login it completed). */
interface LinkOutcome extends LinkRedirect {
  failure?: LoginFailureReason;
  organizationId?: string;
}

/** The e-mailed link: shown by GET (never used by it), used once by POST. */
@Injectable()
export class LoginLinkService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly attempts: LoginAttemptRepository,
    private readonly throttles: EmailThrottleRepository,
    private readonly codes: AuthorizationCodeService,
    private readonly autologin: AutologinService,
    private readonly redirects: StoredRedirectCheck,
    private readonly usage: UsageCounter,
    @Optional() private readonly metrics?: SesameMetrics,
  ) {}

  /** Read-only: mail scanners open every link, so looking must never consume it. */
  async describe(token: unknown): Promise<LinkDescription> {
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
    };
  }

  /**
   * Uses the link once, atomically: the first request wins, any other finds it used. On success
   * the user is created on first login, the address's backoff is reset, and a code is issued.
   * Returns where to send the browser; failures also go back to the application, with an error.
   * The stored redirect_uri is checked again first: one the application no longer allows gets
   * an error page, and the link stays as it was.
   */
  async use(token: unknown): Promise<LinkRedirect> {
    if (!isSecretShaped(token)) {
      this.metrics?.loginsFailed.inc({ reason: 'unknown_link' });
      throw unknownLink();
    }
    const hash = sha256(token);
    const now = this.clock.now();
    const outcome = await this.dataSource.transaction(async (manager) => {
      // Of concurrent requests exactly one claims the attempt.
      const attempt = await this.attempts.claimByTokenHash(manager, hash, now);
      return attempt ? this.complete(manager, attempt, now) : this.refuse(manager, hash);
    }).catch((error: unknown) => {
      if (error instanceof ProblemException && error.code === 'unknown_login_link') this.metrics?.loginsFailed.inc({ reason: 'unknown_link' });
      throw error;
    });
    // Counted once the transaction has committed.
    if (outcome.failure) this.metrics?.loginsFailed.inc({ reason: outcome.failure });
    else this.metrics?.loginsCompleted.inc();
    if (outcome.organizationId) await this.usage.recordForOrganization(outcome.organizationId, 'logins');
    return { url: outcome.url, cookie: outcome.cookie };
  }

  private async complete(manager: EntityManager, attempt: ClaimedAttempt, now: Date): Promise<LinkOutcome> {
    await this.redirects.require(manager, attempt.applicationId, attempt.redirectUri);
    const users: { id: string }[] = await manager.query(
      `INSERT INTO "user" (organization_id, email, email_verified, last_login_at) VALUES ($1, $2, true, $3)
       ON CONFLICT (organization_id, email) DO UPDATE SET email_verified = true, last_login_at = $3, updated_at = $3
         WHERE NOT "user".blocked
       RETURNING id`,
      [attempt.organizationId, attempt.email, now],
    );
    const user = users[0];
    if (!user) return { url: errorRedirect(attempt, 'access_denied', 'This account is blocked'), failure: 'access_denied' };
    await this.throttles.clear(manager, attempt.organizationId, attempt.email);
    const login: CompletedLogin = {
      attemptId: attempt.id,
      applicationId: attempt.applicationId,
      userId: user.id,
      redirectUri: attempt.redirectUri,
      state: attempt.state,
      codeChallenge: attempt.codeChallenge,
      nonce: attempt.nonce,
      flow: attempt.flow,
      authTime: now,
    };
    const walk = await this.autologin.begin(manager, login, now);
    if (walk) return { ...walk, organizationId: attempt.organizationId };
    const code = await this.codes.issue(manager, { ...login, origin: login.flow }, now);
    return { url: withQuery(attempt.redirectUri, { code, state: attempt.state }), organizationId: attempt.organizationId };
  }

  private async refuse(manager: EntityManager, hash: Buffer): Promise<LinkOutcome> {
    const attempt = await this.attempts.findByTokenHash(manager, hash);
    if (!attempt) throw unknownLink();
    await this.redirects.require(manager, attempt.applicationId, attempt.redirectUri);
    return this.linkState(attempt) === 'used'
      ? { url: errorRedirect(attempt, 'login_link_used', 'This login link has already been used'), failure: 'login_link_used' }
      : { url: errorRedirect(attempt, 'login_link_expired', 'This login link has expired'), failure: 'login_link_expired' };
  }

  private linkState(attempt: Pick<AttemptSummary, 'status' | 'expiresAt'>): LinkState {
    const status = effectiveStatus(attempt, this.clock.now());
    if (status === 'completed') return 'used';
    return status === 'pending' ? 'pending' : 'expired';
  }
}

function errorRedirect(attempt: Pick<AttemptSummary, 'redirectUri' | 'state'>, error: string, description: string): string {
  return withQuery(attempt.redirectUri, { error, error_description: description, state: attempt.state });
}
