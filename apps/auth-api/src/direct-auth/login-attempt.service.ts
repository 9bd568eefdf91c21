import { Injectable, Logger, Optional } from '@nestjs/common';
import { Clock, LookupBatcher, notFound, problem, ProblemException, randomSecret, SesameMetrics } from '@sesame/common';
import {
  effectiveStatus,
  EmailThrottleRepository,
  EmailThrottleState,
  LoginAttemptRepository,
  LoginAttemptStatus,
  LoginFlow,
  Transactions,
  Translations,
} from '@sesame/entities';
import { MailProducer, QueueUnavailableError } from '@sesame/queue';
import { EntityManager } from 'typeorm';
import { nextThrottle } from './email-backoff';
import { LoginApprovalService } from './login-approval.service';
import { LoginAttemptEvents } from './login-attempt-events';
import { Completion } from './login-completion.service';
import { Requester, requestedBy } from './requester';
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
  /** User-Agent of the requesting side, shown to a person approving from another device. */
  userAgent: string | null;
  /** IP address of the requesting side, shown to a person approving from another device. */
  ip: string | null;
  /** Hosted page: SHA-256 of the cookie of the browser that asked. */
  browserHash: Buffer | null;
  /** The number the requesting screen shows, which approving from another device asks for. */
  approvalNumber: string;
}

export interface AttemptStatus {
  loginAttemptId: string;
  status: LoginAttemptStatus;
  expiresAt: string;
  allowedDate: string;
  /** Only in the one answer that collects an approval. */
  code?: string;
  state?: string;
  redirectUri?: string;
}

export interface StatusWithCompletion {
  answer: AttemptStatus;
  /** Set in the one answer that collected an approval. */
  completion: Completion | null;
}

export interface StartedAttempt {
  loginAttemptId: string;
  tokenHash: Buffer;
  sentence: string;
  approvalNumber: string;
  allowedDate: Date;
}

const SENTENCE_TRIES = 5;
/** Writes of mail_queued_at out at once; beyond that, the attempts of waiting requests go together in the next. */
const QUEUED_MARKS_IN_FLIGHT = 2;
const MAX_QUEUED_MARKS_PER_WRITE = 500;

/**
 * Starts e-mailed login links (for direct authentication and the hosted login page alike):
 * per-address backoff, the attempt row, and the mail job.
 */
@Injectable()
export class LoginAttemptService {
  private readonly logger = new Logger(LoginAttemptService.name);
  /**
   * mail_queued_at of concurrent requests' attempts in one statement (LookupBatcher): alone while
   * the database keeps up, together under load, where one commit then does for many.
   */
  private readonly queuedMarks = new LookupBatcher<string, true>(
    async (ids) => {
      await this.attempts.markQueued(ids, this.clock.now());
      return new Map(ids.map((id) => [id, true as const]));
    },
    { maxInFlight: QUEUED_MARKS_IN_FLIGHT, maxBatch: MAX_QUEUED_MARKS_PER_WRITE },
  );

  constructor(
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly attempts: LoginAttemptRepository,
    private readonly throttles: EmailThrottleRepository,
    private readonly approval: LoginApprovalService,
    private readonly events: LoginAttemptEvents,
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
    const { attempt, previous } = await this.transactions
      .run((manager) => this.record(manager, request, token, now))
      .catch((error: unknown) => {
        if (error instanceof ProblemException && error.code === 'too_early') this.metrics?.loginsFailed.inc({ reason: 'too_early' });
        throw error;
      });
    try {
      await this.mail.enqueueLoginLink(attempt.loginAttemptId, request.requestId);
    } catch (error) {
      if (!(error instanceof QueueUnavailableError)) throw error;
      await this.withdraw(attempt.loginAttemptId, request, previous);
      this.metrics?.loginsFailed.inc({ reason: 'queue_unavailable' });
      throw problem('temporarily_unavailable', 'The login e-mail cannot be queued right now; try again shortly', {
        headers: { 'Retry-After': '5' },
      });
    }
    await this.markMailQueued(attempt.loginAttemptId);
    return { ...attempt, approvalNumber: request.approvalNumber };
  }

  /**
   * Bookkeeping only: the attempt exists and its e-mail is queued, so the answer is 200 whatever
   * happens here (an error would make the client retry and send a second e-mail). A failure is
   * tried once more, then logged; nothing depends on mail_queued_at for delivery, and the mail
   * sweeper recognises the queued job, so the e-mail is never sent twice.
   */
  private async markMailQueued(loginAttemptId: string): Promise<void> {
    const mark = () => this.queuedMarks.load(loginAttemptId);
    try {
      await mark();
    } catch {
      await mark().catch((error: Error) =>
        this.logger.warn(`Could not record that the e-mail of login attempt ${loginAttemptId} is queued: ${error.message}`),
      );
    }
  }

  /**
   * Status of an attempt of this application, waiting up to `waitSeconds` while it is pending.
   * Only its requester sees it: the application for an attempt direct authentication started, the
   * browser that asked (its cookie) for one of the hosted page; to anyone else it is "not found". An approved attempt is collected here, once,
   * by its requester (`by`: the application, or the hosted page's browser): that answer carries
   * the completion.
   */
  async status(
    applicationId: string,
    loginAttemptId: string,
    waitSeconds = 0,
    by: Requester = { applicationId },
  ): Promise<StatusWithCompletion> {
    const read = () => this.readStatus(applicationId, loginAttemptId, by);
    return this.heldWhilePending(loginAttemptId, waitSeconds, read, (status) => status.answer.status);
  }

  /**
   * The status alone, waiting up to `waitSeconds` while it is pending: an approved attempt is not
   * collected (the hosted page's script waits on this, then lets the page collect).
   */
  async watch(applicationId: string, loginAttemptId: string, waitSeconds: number, by: Requester): Promise<LoginAttemptStatus> {
    const read = async () => effectiveStatus(await this.requestedAttempt(applicationId, loginAttemptId, by), this.clock.now());
    return this.heldWhilePending(loginAttemptId, waitSeconds, read, (status) => status);
  }

  private async heldWhilePending<T>(
    loginAttemptId: string,
    waitSeconds: number,
    read: () => Promise<T>,
    statusOf: (read: T) => string,
  ): Promise<T> {
    // Subscribed before the first read: a change between that read and the wait is not missed.
    const watch = waitSeconds > 0 ? await this.events.watch(loginAttemptId) : null;
    try {
      const first = await read();
      if (!watch || statusOf(first) !== 'pending') return first;
      await watch.next(waitSeconds * 1000);
      return await read();
    } finally {
      watch?.stop();
    }
  }

  private async requestedAttempt(applicationId: string, loginAttemptId: string, by: Requester) {
    const attempt = await this.attempts.findForApplication(applicationId, loginAttemptId);
    if (!attempt || !requestedBy(attempt, by)) throw notFound('login attempt');
    return attempt;
  }

  private async readStatus(applicationId: string, loginAttemptId: string, by: Requester): Promise<StatusWithCompletion> {
    const attempt = await this.requestedAttempt(applicationId, loginAttemptId, by);
    const throttled = await this.throttles.allowedDate(attempt.organizationId, attempt.email);
    const now = this.clock.now();
    const allowedDate = throttled && throttled > now ? throttled : now;
    const answer: AttemptStatus = {
      loginAttemptId,
      status: effectiveStatus(attempt, now),
      expiresAt: attempt.expiresAt.toISOString(),
      allowedDate: allowedDate.toISOString(),
    };
    if (answer.status !== 'approved') return { answer, completion: null };
    const completion = await this.approval.collect(loginAttemptId, by);
    if (completion?.kind !== 'code') return { answer: { ...answer, status: 'completed' }, completion };
    return { answer: { ...answer, code: completion.code, state: completion.state, redirectUri: completion.redirectUri }, completion };
  }

  /** What the hosted "check your inbox" page shows of an attempt of this application again. */
  async inboxView(
    applicationId: string,
    loginAttemptId: string,
    by: Requester,
  ): Promise<{ email: string; sentence: string; allowedDate: Date }> {
    const attempt = await this.attempts.findForApplication(applicationId, loginAttemptId);
    if (!attempt || !requestedBy(attempt, by)) throw notFound('login attempt');
    const throttled = await this.throttles.allowedDate(attempt.organizationId, attempt.email);
    const now = this.clock.now();
    return { email: attempt.email, sentence: attempt.sentence, allowedDate: throttled && throttled > now ? throttled : now };
  }

  private async record(manager: EntityManager, request: LoginRequest, token: string, now: Date) {
    const { previous, next } = await this.countAttempt(manager, request.organizationId, request.email, now);
    const attempt = await this.insertAttempt(manager, request, token, now);
    return { attempt: { ...attempt, allowedDate: next.allowedDate }, previous };
  }

  /**
   * Counts the attempt in the address's backoff, or refuses it as too early. The address's row
   * stays locked until the transaction ends, so concurrent requests for one address are decided
   * one after another. Most requests find no row (a login clears it): one statement makes it.
   */
  private async countAttempt(manager: EntityManager, organizationId: string, email: string, now: Date) {
    const first = nextThrottle(null, now);
    if (await this.throttles.insertFirst(manager, organizationId, email, first)) return { previous: null, next: first };
    const previous = await this.throttles.lock(manager, organizationId, email, now);
    if (previous && previous.allowedDate > now) throw tooEarly(previous.allowedDate, now);
    const next = nextThrottle(previous, now);
    await this.throttles.save(manager, organizationId, email, next);
    return { previous, next };
  }

  /** Sentences are unique among live attempts: a taken one is drawn again. */
  private async insertAttempt(manager: EntityManager, request: LoginRequest, token: string, now: Date) {
    const expiresAt = new Date(now.getTime() + request.linkTtlSeconds * 1000);
    for (let attempt = 0; attempt < SENTENCE_TRIES; attempt++) {
      const sentence = generateSentence();
      const inserted = await this.attempts.insert(
        manager,
        {
          organizationId: request.organizationId,
          applicationId: request.applicationId,
          email: request.email,
          sentence,
          state: request.state,
          redirectUri: request.redirectUri,
          codeChallenge: request.codeChallenge,
          nonce: request.nonce,
          flow: request.flow,
          translations: request.translations,
          requestId: request.requestId,
          requesterUserAgent: request.userAgent?.slice(0, 512) ?? null,
          requesterIp: request.ip,
          requesterBrowserHash: request.browserHash,
          approvalNumber: request.approvalNumber,
          expiresAt,
          createdAt: now,
        },
        token,
      );
      if (inserted) return { loginAttemptId: inserted.id, tokenHash: inserted.tokenHash, sentence };
    }
    throw new Error('Could not find a free sentence for a login attempt');
  }

  /** Undoes an attempt whose e-mail could not be queued: it expires, and the address's backoff is as before. */
  private async withdraw(loginAttemptId: string, request: LoginRequest, previous: EmailThrottleState | null): Promise<void> {
    this.logger.warn(`Mail queue unavailable; withdrew login attempt ${loginAttemptId}`);
    await this.transactions.run(async (manager) => {
      await this.attempts.withdraw(manager, loginAttemptId);
      await this.throttles.restore(manager, request.organizationId, request.email, previous);
    });
  }
}

function tooEarly(allowedDate: Date, now: Date): ProblemException {
  const retryAfter = Math.max(1, Math.ceil((allowedDate.getTime() - now.getTime()) / 1000));
  return problem('too_early', `The next login attempt for this address is allowed at ${allowedDate.toISOString()}`, {
    headers: { 'Retry-After': String(retryAfter) },
    body: { allowedDate: allowedDate.toISOString() },
  });
}
