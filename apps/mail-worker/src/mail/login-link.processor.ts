import { InjectQueue, OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { BeforeApplicationShutdown, Logger, Optional } from '@nestjs/common';
import { LogContext, SesameMetrics } from '@sesame/common';
import { closeQueue, knownPayload, LOGIN_LINK_JOB, LoginLinkJob, MAIL_QUEUE } from '@sesame/queue';
import type { Job, Queue } from 'bull';
import { DeliveryOutcome, LoginLinkMailer } from './login-link.mailer';

/** How many e-mails one worker sends at once (they wait mostly on the SMTP server). */
const CONCURRENCY = 4;

/** Consumes `login-link` jobs; a failure is retried by Bull with exponential backoff, and the last failure is kept. */
@Processor(MAIL_QUEUE)
export class LoginLinkProcessor implements BeforeApplicationShutdown {
  private readonly logger = new Logger(LoginLinkProcessor.name);

  constructor(
    private readonly mailer: LoginLinkMailer,
    @InjectQueue(MAIL_QUEUE) private readonly queue: Queue<LoginLinkJob>,
    @Optional() private readonly metrics?: SesameMetrics,
    @Optional() private readonly logContext?: LogContext,
  ) {}

  /**
   * Every line logged while a job runs carries the requestId of the HTTP request that queued it.
   * A failure of the last attempt is recorded on the attempt before Bull keeps the job as failed.
   */
  @Process({ name: LOGIN_LINK_JOB, concurrency: CONCURRENCY })
  handle(job: Job<LoginLinkJob>): Promise<DeliveryOutcome> {
    return this.inJobContext(job, async () => {
      const { loginAttemptId } = await knownPayload(job);
      const outcome = await this.mailer.deliver(loginAttemptId).catch(async (error: unknown) => {
        if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await this.mailer.recordFailure(loginAttemptId);
        throw error;
      });
      (outcome === 'sent' ? this.metrics?.mailJobsSent : this.metrics?.mailJobsSkipped)?.inc();
      this.logger.log(`Login link job for attempt ${loginAttemptId}: ${outcome} (try ${job.attemptsMade + 1})`);
      return outcome;
    });
  }

  /** Every failed job of the queue comes here (invitations too: the queue is shared). */
  @OnQueueFailed()
  onFailed(job: Job<LoginLinkJob>, error: Error): void {
    if (job.name !== LOGIN_LINK_JOB) return;
    const final = job.attemptsMade >= (job.opts.attempts ?? 1);
    (final ? this.metrics?.mailJobsFailed : this.metrics?.mailJobsRetried)?.inc();
    this.inJobContext(job, () =>
      this.logger.warn(
        `Login link e-mail for attempt ${job.data.loginAttemptId} failed (${job.attemptsMade}${final ? ', giving up' : ', will retry'}): ${error.message}`,
      ),
    );
  }

  /** On SIGTERM: take no new job and wait for the ones in progress (closeQueue), before Postgres and Redis close. */
  async beforeApplicationShutdown(): Promise<void> {
    this.logger.log('Stopping: no new mail jobs; finishing the current one');
    await closeQueue(this.queue);
  }

  private inJobContext<T>(job: Job<LoginLinkJob>, work: () => T): T {
    const fields = { requestId: job.data.requestId, jobId: String(job.id), loginAttemptId: job.data.loginAttemptId };
    return this.logContext ? this.logContext.run(fields, work) : work();
  }
}
