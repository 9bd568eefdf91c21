import { Process, Processor } from '@nestjs/bull';
import { Logger, Optional } from '@nestjs/common';
import { LogContext } from '@sesame/common';
import { knownPayload, MAIL_QUEUE, MEMBER_INVITATION_JOB, MemberInvitationJob } from '@sesame/queue';
import type { Job } from 'bull';
import { MemberInvitationMailer } from './member-invitation.mailer';

/** Consumes `member-invitation` jobs on the mail queue (retries and shutdown as for login links: the queue is shared). */
@Processor(MAIL_QUEUE)
export class MemberInvitationProcessor {
  private readonly logger = new Logger(MemberInvitationProcessor.name);

  constructor(
    private readonly mailer: MemberInvitationMailer,
    @Optional() private readonly logContext?: LogContext,
  ) {}

  @Process({ name: MEMBER_INVITATION_JOB })
  handle(job: Job<MemberInvitationJob>): Promise<'sent' | 'skipped'> {
    const work = async () => {
      const outcome = await this.mailer.deliver((await knownPayload(job)).memberId);
      this.logger.log(`Invitation job for member ${job.data.memberId}: ${outcome} (try ${job.attemptsMade + 1})`);
      return outcome;
    };
    const fields = { requestId: job.data.requestId, jobId: String(job.id), memberId: job.data.memberId };
    return this.logContext ? this.logContext.run(fields, work) : work();
  }
}
