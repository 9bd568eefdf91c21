import { Injectable, Logger, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Clock, notFound, ProblemException, randomSecret, SecretBox, SesameMetrics, sha256 } from '@sesame/common';
import { LoginAttemptStatus, LoginFlow, Translations } from '@sesame/entities';
import { MailProducer, QueueUnavailableError } from '@sesame/queue';
import { DataSource, EntityManager } from 'typeorm';
import { EmailThrottleState, nextThrottle } from './email-backoff';
import { generateSentence } from './sentence';

export interface LoginRequest {
  applicationId: string;
  organizationId: string;
  /** Normalised address. */
  email: string;
  /** The redirect_uri exactly as given, already checked for this application. */
  redirectUri: string;
  state: string;
  codeChallenge: string | null;
  /** OpenID Connect nonce, returned in the id_token. */
  nonce: string | null;
  flow: LoginFlow;
  translations: Translations | null;
  linkTtlSeconds: number;
  requestId: string | null;
}

export interface StartedAttempt {
  loginAttemptId: string;
  tokenHash: Buffer;
  sentence: string;
  allowedDate: Date;
}

const SENTENCE_TRIES = 5;

/**
 * Starts e-mailed login links (for direct authentication and the hosted login page alike):
 * per-address backoff, the attempt row, and the mail job.
 */
@Injectable()
export class LoginAttemptService {
  private readonly logger = new Logger(LoginAttemptService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly mail: MailProducer,
    @Optional() private readonly metrics?: SesameMetrics,
  ) {}

  /**
   * Records the attempt and queues its e-mail. Before the address's allowedDate it answers 429
   * and changes nothing. Concurrent requests for one address serialise on the throttle row, so
   * exactly one gets through. If the queue is unreachable the attempt is withdrawn and the
   * caller gets 503: nothing is accepted that could lose its e-mail.
   */
  async start(request: LoginRequest): Promise<StartedAttempt> {
    const now = this.clock.now();
    const token = randomSecret();
    const { attempt, previous } = await this.dataSource.transaction((manager) => this.record(manager, request, token, now)).catch((error: unknown) => {
      if (error instanceof ProblemException && error.code === 'too_early') this.metrics?.loginsFailed.inc({ reason: 'too_early' });
      throw error;
    });
    try {
      await this.mail.enqueueLoginLink(attempt.loginAttemptId, request.requestId);
    } catch (error) {
      if (!(error instanceof QueueUnavailableError)) throw error;
      await this.withdraw(attempt.loginAttemptId, request, previous);
      this.metrics?.loginsFailed.inc({ reason: 'queue_unavailable' });
      throw new ProblemException(503, 'temporarily_unavailable', 'The login e-mail cannot be queued right now; try again shortly', {
        headers: { 'Retry-After': '5' },
      });
    }
    await this.markMailQueued(attempt.loginAttemptId);
    return attempt;
  }

  /**
   * Bookkeeping only: the attempt exists and its e-mail is queued, so the answer is 200 whatever
   * happens here (an error would make the client retry and send a second e-mail). A failure is
   * tried once more, then logged; nothing depends on mail_queued_at for delivery, and the mail
   * sweeper recognises the queued job, so the e-mail is never sent twice.
   */
  private async markMailQueued(loginAttemptId: string): Promise<void> {
    const mark = () => this.dataSource.query('UPDATE login_attempt SET mail_queued_at = $2 WHERE id = $1 AND mail_queued_at IS NULL', [loginAttemptId, this.clock.now()]);
    try {
      await mark();
    } catch {
      await mark().catch((error: Error) => this.logger.warn(`Could not record that the e-mail of login attempt ${loginAttemptId} is queued: ${error.message}`));
    }
  }

  /** Status of an attempt of this application (another application's attempt is "not found"). */
  async status(applicationId: string, loginAttemptId: string) {
    const rows: { status: LoginAttemptStatus; expires_at: Date; allowed_date: Date | null }[] = await this.dataSource.query(
      `SELECT a.status, a.expires_at, t.allowed_date
         FROM login_attempt a
         LEFT JOIN email_throttle t ON t.organization_id = a.organization_id AND t.email = a.email
        WHERE a.id = $1 AND a.application_id = $2`,
      [loginAttemptId, applicationId],
    );
    const row = rows[0];
    if (!row) throw notFound('login attempt');
    const now = this.clock.now();
    const status: LoginAttemptStatus = row.status === 'pending' && row.expires_at <= now ? 'expired' : row.status;
    const allowedDate = row.allowed_date && row.allowed_date > now ? row.allowed_date : now;
    return { loginAttemptId, status, expiresAt: row.expires_at.toISOString(), allowedDate: allowedDate.toISOString() };
  }

  private async record(manager: EntityManager, request: LoginRequest, token: string, now: Date) {
    const previous = await this.lockThrottle(manager, request, now);
    if (previous && previous.allowedDate > now) throw tooEarly(previous.allowedDate, now);
    const next = nextThrottle(previous, now);
    await manager.query(
      `INSERT INTO email_throttle (organization_id, email, attempts, allowed_date, last_attempt_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (organization_id, email) DO UPDATE SET attempts = $3, allowed_date = $4, last_attempt_at = $5`,
      [request.organizationId, request.email, next.attempts, next.allowedDate, next.lastAttemptAt],
    );
    const blocked: { blocked: boolean }[] = await manager.query('SELECT blocked FROM "user" WHERE organization_id = $1 AND email = $2', [
      request.organizationId,
      request.email,
    ]);
    const attempt = await this.insertAttempt(manager, request, token, now, blocked[0]?.blocked ?? false);
    return { attempt: { ...attempt, allowedDate: next.allowedDate }, previous };
  }

  /** Locks the address's throttle row for this transaction (creating it if needed, so even the first request serialises). */
  private async lockThrottle(manager: EntityManager, request: LoginRequest, now: Date): Promise<EmailThrottleState | null> {
    await manager.query(
      `INSERT INTO email_throttle (organization_id, email, attempts, allowed_date, last_attempt_at) VALUES ($1, $2, 0, $3, $3)
       ON CONFLICT DO NOTHING`,
      [request.organizationId, request.email, now],
    );
    const rows: { attempts: number; allowed_date: Date; last_attempt_at: Date }[] = await manager.query(
      'SELECT attempts, allowed_date, last_attempt_at FROM email_throttle WHERE organization_id = $1 AND email = $2 FOR UPDATE',
      [request.organizationId, request.email],
    );
    const row = rows[0];
    return row.attempts === 0 ? null : { attempts: row.attempts, allowedDate: row.allowed_date, lastAttemptAt: row.last_attempt_at };
  }

  private async insertAttempt(manager: EntityManager, request: LoginRequest, token: string, now: Date, mailSuppressed: boolean) {
    const tokenHash = sha256(token);
    const expiresAt = new Date(now.getTime() + request.linkTtlSeconds * 1000);
    for (let attempt = 0; attempt < SENTENCE_TRIES; attempt++) {
      const sentence = generateSentence();
      const rows: { id: string }[] = await manager.query(
        `INSERT INTO login_attempt (organization_id, application_id, email, token_hash, link_token_encrypted, sentence, state, redirect_uri,
                                    code_challenge, translations, mail_suppressed, request_id, expires_at, created_at, nonce, flow)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
         ON CONFLICT DO NOTHING RETURNING id`,
        [
          request.organizationId,
          request.applicationId,
          request.email,
          tokenHash,
          this.box.encrypt(token, tokenHash.toString('base64url')),
          sentence,
          request.state,
          request.redirectUri,
          request.codeChallenge,
          request.translations,
          mailSuppressed,
          request.requestId,
          expiresAt,
          now,
          request.nonce,
          request.flow,
        ],
      );
      if (rows[0]) return { loginAttemptId: rows[0].id, tokenHash, sentence };
    }
    throw new Error('Could not find a free sentence for a login attempt');
  }

  /** Undoes an attempt whose e-mail could not be queued: it expires, and the address's backoff is as before. */
  private async withdraw(loginAttemptId: string, request: LoginRequest, previous: EmailThrottleState | null): Promise<void> {
    this.logger.warn(`Mail queue unavailable; withdrew login attempt ${loginAttemptId}`);
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`UPDATE login_attempt SET status = 'expired', link_token_encrypted = NULL WHERE id = $1`, [loginAttemptId]);
      if (previous) {
        await manager.query('UPDATE email_throttle SET attempts = $3, allowed_date = $4, last_attempt_at = $5 WHERE organization_id = $1 AND email = $2', [
          request.organizationId,
          request.email,
          previous.attempts,
          previous.allowedDate,
          previous.lastAttemptAt,
        ]);
      } else {
        await manager.query('DELETE FROM email_throttle WHERE organization_id = $1 AND email = $2', [request.organizationId, request.email]);
      }
    });
  }
}

function tooEarly(allowedDate: Date, now: Date): ProblemException {
  const retryAfter = Math.max(1, Math.ceil((allowedDate.getTime() - now.getTime()) / 1000));
  return new ProblemException(429, 'too_early', `The next login attempt for this address is allowed at ${allowedDate.toISOString()}`, {
    headers: { 'Retry-After': String(retryAfter) },
    body: { allowedDate: allowedDate.toISOString() },
  });
}
