import { Process, Processor } from '@nestjs/bull';
import { MAIL_QUEUE, MEMBER_INVITATION_JOB, MemberInvitationJob } from '@sesame/queue';
import type { Job } from 'bull';
import { MemberInvitationMailer } from './member-invitation.mailer';
import { NoticeJobs, NoticeOutcome } from './notice-jobs';

/** Consumes `member-invitation` jobs on the mail queue (NoticeJobs: the steps every notice job takes). */
@Processor(MAIL_QUEUE)
export class MemberInvitationProcessor {
  constructor(
    private readonly mailer: MemberInvitationMailer,
    private readonly jobs: NoticeJobs,
  ) {}

  @Process({ name: MEMBER_INVITATION_JOB })
  handle(job: Job<MemberInvitationJob>): Promise<NoticeOutcome> {
    return this.jobs.run(job, 'memberId', (id) => this.mailer.deliver(id));
  }
}
