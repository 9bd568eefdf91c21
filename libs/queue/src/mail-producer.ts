import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { SESAME_CONFIG, SesameConfig, SesameMetrics, withTimeout } from '@sesame/common';
import type { Queue } from 'bull';
import {
  ENDPOINT_DISABLED_JOB,
  EndpointDisabledJob,
  LOGIN_LINK_JOB,
  LoginLinkJob,
  MAIL_QUEUE,
  MEMBER_INVITATION_JOB,
  MemberInvitationJob,
  PASSKEY_REGISTERED_JOB,
  PasskeyRegisteredJob,
} from './mail-queue';

type MailJob = LoginLinkJob | MemberInvitationJob | EndpointDisabledJob | PasskeyRegisteredJob;

export class QueueUnavailableError extends Error {
  constructor() {
    super('The mail queue did not accept the job in time');
    this.name = 'QueueUnavailableError';
  }
}

@Injectable()
export class MailProducer {
  constructor(
    @InjectQueue(MAIL_QUEUE) private readonly queue: Queue<MailJob>,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
    @Optional() private readonly metrics?: SesameMetrics,
  ) {}

  /** MAIL_ENQUEUE_TIMEOUT_MS, and the failover wait on top while Redis fails over to a new primary. */
  private get enqueueTimeoutMs(): number {
    return this.config.mail.enqueueTimeoutMs + this.config.redis.failoverWaitMs;
  }

  /**
   * Queues the login e-mail of an attempt. The job id is the attempt id, so queueing the same
   * attempt again while its job exists is a no-op. Throws QueueUnavailableError when Redis does
   * not accept the job within MAIL_ENQUEUE_TIMEOUT_MS; the worker ignores a job that arrives
   * later for an attempt that is no longer pending.
   */
  async enqueueLoginLink(loginAttemptId: string, requestId: string | null = null): Promise<void> {
    const job: LoginLinkJob = { version: 1, loginAttemptId, requestId };
    await this.add(LOGIN_LINK_JOB, job, loginAttemptId);
  }

  /** Queues the invitation e-mail of a new tenant member (job id `member-invitation:<member id>`). Throws QueueUnavailableError like enqueueLoginLink. */
  async enqueueMemberInvitation(memberId: string, requestId: string | null = null): Promise<void> {
    const job: MemberInvitationJob = { version: 1, memberId, requestId };
    await this.add(MEMBER_INVITATION_JOB, job, `${MEMBER_INVITATION_JOB}:${memberId}`);
  }

  /** Queues the e-mail to a tenant's owners that Sesame disabled a webhook endpoint (once per time it was disabled). Throws QueueUnavailableError like enqueueLoginLink. */
  async enqueueEndpointDisabled(endpointId: string, disabledAt: Date): Promise<void> {
    const job: EndpointDisabledJob = { version: 1, endpointId, requestId: null };
    await this.add(ENDPOINT_DISABLED_JOB, job, `${ENDPOINT_DISABLED_JOB}:${endpointId}:${disabledAt.getTime()}`);
  }

  /** Queues the e-mail telling a user that a passkey was added to their sign-in (job id `passkey-registered:<passkey id>`). Throws QueueUnavailableError like enqueueLoginLink. */
  async enqueuePasskeyRegistered(passkeyId: string, requestId: string | null = null): Promise<void> {
    const job: PasskeyRegisteredJob = { version: 1, passkeyId, requestId };
    await this.add(PASSKEY_REGISTERED_JOB, job, `${PASSKEY_REGISTERED_JOB}:${passkeyId}`);
  }

  private async add(name: string, job: MailJob, jobId: string): Promise<void> {
    try {
      await withTimeout(this.queue.add(name, job, { jobId }), this.enqueueTimeoutMs);
    } catch {
      throw new QueueUnavailableError();
    }
    this.metrics?.mailJobsQueued.inc();
  }

  /**
   * Queues an attempt's e-mail again only if its job is gone (lost with Redis, or never added).
   * A job still waiting, retrying, or kept as failed is left alone. True when it was queued.
   */
  async requeueIfLost(loginAttemptId: string, requestId: string | null): Promise<boolean> {
    if (await withTimeout(this.queue.getJob(loginAttemptId), this.enqueueTimeoutMs)) return false;
    await this.enqueueLoginLink(loginAttemptId, requestId);
    return true;
  }
}
