import { OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import { LOGIN_LINK_JOB, LoginLinkJob, MAIL_QUEUE } from '@sesame/queue';
import type { Job } from 'bull';
import { DeliveryOutcome, LoginLinkMailer } from './login-link.mailer';

/** Consumes `login-link` jobs; a failure is retried by Bull with exponential backoff, and the last failure is kept. */
@Processor(MAIL_QUEUE)
export class LoginLinkProcessor {
  private readonly logger = new Logger(LoginLinkProcessor.name);

  constructor(private readonly mailer: LoginLinkMailer) {}

  @Process(LOGIN_LINK_JOB)
  handle(job: Job<LoginLinkJob>): Promise<DeliveryOutcome> {
    return this.mailer.deliver(job.data.loginAttemptId);
  }

  @OnQueueFailed()
  onFailed(job: Job<LoginLinkJob>, error: Error): void {
    const final = job.attemptsMade >= (job.opts.attempts ?? 1);
    this.logger.warn(`Login link e-mail for attempt ${job.data.loginAttemptId} failed (${job.attemptsMade}${final ? ', giving up' : ', will retry'}): ${error.message}`);
  }
}
