import { Process, Processor } from '@nestjs/bull';
import { MAIL_QUEUE, ENDPOINT_DISABLED_JOB, EndpointDisabledJob } from '@sesame/queue';
import type { Job } from 'bull';
import { EndpointDisabledMailer } from './endpoint-disabled.mailer';
import { NoticeJobs, NoticeOutcome } from './notice-jobs';

/** Consumes `endpoint-disabled` jobs on the mail queue (NoticeJobs: the steps every notice job takes). */
@Processor(MAIL_QUEUE)
export class EndpointDisabledProcessor {
  constructor(
    private readonly mailer: EndpointDisabledMailer,
    private readonly jobs: NoticeJobs,
  ) {}

  @Process({ name: ENDPOINT_DISABLED_JOB })
  handle(job: Job<EndpointDisabledJob>): Promise<NoticeOutcome> {
    return this.jobs.run(job, 'endpointId', (id) => this.mailer.deliver(id));
  }
}
