import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Clock, isSecretShaped, LoginFailureReason, ProblemException, SesameMetrics, sha256, withQuery } from '@sesame/common';
import { LoginAttemptStatus, LoginFlow } from '@sesame/entities';
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

interface AttemptRow {
  id: string;
  organization_id: string;
  application_id: string;
  email: string;
  state: string;
  redirect_uri: string;
  code_challenge: string | null;
  nonce: string | null;
  flow: LoginFlow;
  status: LoginAttemptStatus;
  expires_at: Date;
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
    private readonly codes: AuthorizationCodeService,
    private readonly autologin: AutologinService,
    private readonly redirects: StoredRedirectCheck,
    private readonly usage: UsageCounter,
    @Optional() private readonly metrics?: SesameMetrics,
  ) {}

  /** Read-only: mail scanners open every link, so looking must never consume it. */
  async describe(token: unknown): Promise<LinkDescription> {
    if (!isSecretShaped(token)) throw unknownLink();
    const rows: (AttemptRow & { sentence: string; organization_name: string; application_name: string; autologin: boolean; whitelist_domains: string[] })[] = await this.dataSource.query(
      `SELECT a.status, a.expires_at, a.sentence, a.email, a.redirect_uri, o.name AS organization_name, p.name AS application_name,
              o.autologin, o.whitelist_domains
         FROM login_attempt a
         JOIN organization o ON o.id = a.organization_id
         JOIN application p ON p.id = a.application_id
        WHERE a.token_hash = $1`,
      [sha256(token)],
    );
    const row = rows[0];
    if (!row) throw unknownLink();
    return {
      state: this.linkState(row),
      organizationName: row.organization_name,
      applicationName: row.application_name,
      sentence: row.sentence,
      email: row.email,
      // With autologin the first redirect may go to any of the organization's domains.
      formTargets: [row.redirect_uri, ...(row.autologin ? row.whitelist_domains.filter((origin) => !origin.includes('*')) : [])],
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
      // The conditional UPDATE is the claim: of concurrent requests exactly one gets the row back.
      // (Wrapped in a CTE because TypeORM reshapes the result of a bare UPDATE.)
      const claimed: AttemptRow[] = await manager.query(
        `WITH claimed AS (
           UPDATE login_attempt SET status = 'completed', used_at = $2, link_token_encrypted = NULL
            WHERE token_hash = $1 AND status = 'pending' AND expires_at > $2
            RETURNING id, organization_id, application_id, email, state, redirect_uri, code_challenge, nonce, flow, status, expires_at)
         SELECT * FROM claimed`,
        [hash, now],
      );
      const attempt = claimed[0];
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

  private async complete(manager: EntityManager, attempt: AttemptRow, now: Date): Promise<LinkOutcome> {
    await this.redirects.require(manager, attempt.application_id, attempt.redirect_uri);
    const users: { id: string }[] = await manager.query(
      `INSERT INTO "user" (organization_id, email, email_verified, last_login_at) VALUES ($1, $2, true, $3)
       ON CONFLICT (organization_id, email) DO UPDATE SET email_verified = true, last_login_at = $3, updated_at = $3
         WHERE NOT "user".blocked
       RETURNING id`,
      [attempt.organization_id, attempt.email, now],
    );
    const user = users[0];
    if (!user) return { url: errorRedirect(attempt, 'access_denied', 'This account is blocked'), failure: 'access_denied' };
    await manager.query('DELETE FROM email_throttle WHERE organization_id = $1 AND email = $2', [attempt.organization_id, attempt.email]);
    const login: CompletedLogin = {
      attemptId: attempt.id,
      applicationId: attempt.application_id,
      userId: user.id,
      redirectUri: attempt.redirect_uri,
      state: attempt.state,
      codeChallenge: attempt.code_challenge,
      nonce: attempt.nonce,
      flow: attempt.flow,
      authTime: now,
    };
    const walk = await this.autologin.begin(manager, login, now);
    if (walk) return { ...walk, organizationId: attempt.organization_id };
    const code = await this.codes.issue(manager, { ...login, origin: login.flow }, now);
    return { url: withQuery(attempt.redirect_uri, { code, state: attempt.state }), organizationId: attempt.organization_id };
  }

  private async refuse(manager: EntityManager, hash: Buffer): Promise<LinkOutcome> {
    const rows: AttemptRow[] = await manager.query('SELECT application_id, state, redirect_uri, status, expires_at FROM login_attempt WHERE token_hash = $1', [hash]);
    const attempt = rows[0];
    if (!attempt) throw unknownLink();
    await this.redirects.require(manager, attempt.application_id, attempt.redirect_uri);
    return this.linkState(attempt) === 'used'
      ? { url: errorRedirect(attempt, 'login_link_used', 'This login link has already been used'), failure: 'login_link_used' }
      : { url: errorRedirect(attempt, 'login_link_expired', 'This login link has expired'), failure: 'login_link_expired' };
  }

  private linkState(row: Pick<AttemptRow, 'status' | 'expires_at'>): LinkState {
    if (row.status === 'completed') return 'used';
    return row.status === 'pending' && row.expires_at > this.clock.now() ? 'pending' : 'expired';
  }
}

function errorRedirect(attempt: Pick<AttemptRow, 'redirect_uri' | 'state'>, error: string, description: string): string {
  return withQuery(attempt.redirect_uri, { error, error_description: description, state: attempt.state });
}
