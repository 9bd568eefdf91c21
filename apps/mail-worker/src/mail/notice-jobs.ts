import { Injectable, Logger, Optional } from '@nestjs/common';
import { LogContext } from '@sesame/common';
import { knownPayload } from '@sesame/queue';
import type { Job } from 'bull';

/** What a notice job's mailer did: sent its mail, or found nothing left to tell (the subject was gone or changed). */
export type NoticeOutcome = 'sent' | 'skipped';

/** A notice job's payload: the id of what it is about, and the request that queued it (null when the worker itself did). */
interface NoticePayload {
  version: number;
  requestId: string | null;
}

/**
 * The steps every notice job of the mail queue takes (an invitation, a passkey added, an endpoint
 * disabled): its payload checked (knownPayload), the mailer run with the job's fields on every line
 * it logs (the requestId of the request that queued it), and one line saying what came of it.
 * Retries and shutdown are the queue's, as for login links.
 */
@Injectable()
export class NoticeJobs {
  private readonly logger = new Logger(NoticeJobs.name);

  constructor(@Optional() private readonly logContext?: LogContext) {}

  /** `subject`: the payload field naming what the notice is about (`memberId`, say). */
  run<T extends NoticePayload, K extends keyof T & string>(
    job: Job<T>,
    subject: K,
    deliver: (id: string) => Promise<NoticeOutcome>,
  ): Promise<NoticeOutcome> {
    const work = async () => {
      const id = String((await knownPayload(job))[subject]);
      const outcome = await deliver(id);
      this.logger.log(`${job.name} job for ${subject} ${id}: ${outcome} (try ${job.attemptsMade + 1})`);
      return outcome;
    };
    const fields = { requestId: job.data?.requestId ?? null, jobId: String(job.id), [subject]: job.data?.[subject] };
    return this.logContext ? this.logContext.run(fields, work) : work();
  }
}
