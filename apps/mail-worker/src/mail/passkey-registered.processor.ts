import { Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import { knownPayload, MAIL_QUEUE, PASSKEY_REGISTERED_JOB, PasskeyRegisteredJob } from '@sesame/queue';
import type { Job } from 'bull';
import { PasskeyRegisteredMailer } from './passkey-registered.mailer';

/** Consumes `passkey-registered` jobs on the mail queue (retries and shutdown as for login links: the queue is shared). */
@Processor(MAIL_QUEUE)
export class PasskeyRegisteredProcessor {
  private readonly logger = new Logger(PasskeyRegisteredProcessor.name);

  constructor(private readonly mailer: PasskeyRegisteredMailer) {}

  @Process({ name: PASSKEY_REGISTERED_JOB })
  async handle(job: Job<PasskeyRegisteredJob>): Promise<'sent' | 'skipped'> {
    const outcome = await this.mailer.deliver((await knownPayload(job)).passkeyId);
    this.logger.log(
      `Passkey-registered job for passkey ${job.data.passkeyId}: ${outcome} (try ${job.attemptsMade + 1}, request ${job.data.requestId ?? '-'})`,
    );
    return outcome;
  }
}
