import { Process, Processor } from '@nestjs/bull';
import { MAIL_QUEUE, PASSKEY_REGISTERED_JOB, PasskeyRegisteredJob } from '@sesame/queue';
import type { Job } from 'bull';
import { PasskeyRegisteredMailer } from './passkey-registered.mailer';
import { NoticeJobs, NoticeOutcome } from './notice-jobs';

/** Consumes `passkey-registered` jobs on the mail queue (NoticeJobs: the steps every notice job takes). */
@Processor(MAIL_QUEUE)
export class PasskeyRegisteredProcessor {
  constructor(
    private readonly mailer: PasskeyRegisteredMailer,
    private readonly jobs: NoticeJobs,
  ) {}

  @Process({ name: PASSKEY_REGISTERED_JOB })
  handle(job: Job<PasskeyRegisteredJob>): Promise<NoticeOutcome> {
    return this.jobs.run(job, 'passkeyId', (id) => this.mailer.deliver(id));
  }
}
