import { Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import { ENDPOINT_DISABLED_JOB, EndpointDisabledJob, knownPayload, MAIL_QUEUE } from '@sesame/queue';
import type { Job } from 'bull';
import { EndpointDisabledMailer } from './endpoint-disabled.mailer';

/** Consumes `endpoint-disabled` jobs on the mail queue (retries and shutdown as for login links: the queue is shared). */
@Processor(MAIL_QUEUE)
export class EndpointDisabledProcessor {
  private readonly logger = new Logger(EndpointDisabledProcessor.name);

  constructor(private readonly mailer: EndpointDisabledMailer) {}

  @Process({ name: ENDPOINT_DISABLED_JOB })
  async handle(job: Job<EndpointDisabledJob>): Promise<'sent' | 'skipped'> {
    const outcome = await this.mailer.deliver((await knownPayload(job)).endpointId);
    this.logger.log(`Endpoint-disabled job for endpoint ${job.data.endpointId}: ${outcome} (try ${job.attemptsMade + 1})`);
    return outcome;
  }
}
