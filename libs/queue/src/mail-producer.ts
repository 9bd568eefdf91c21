import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { SESAME_CONFIG, SesameConfig, SesameMetrics } from '@sesame/common';
import type { Queue } from 'bull';
import { LOGIN_LINK_JOB, LoginLinkJob, MAIL_QUEUE } from './mail-queue';

export class QueueUnavailableError extends Error {
  constructor() {
    super('The mail queue did not accept the job in time');
    this.name = 'QueueUnavailableError';
  }
}

@Injectable()
export class MailProducer {
  constructor(
    @InjectQueue(MAIL_QUEUE) private readonly queue: Queue<LoginLinkJob>,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
    @Optional() private readonly metrics?: SesameMetrics,
  ) {}

  /**
   * Queues the login e-mail of an attempt. The job id is the attempt id, so queueing the same
   * attempt again while its job exists is a no-op. Throws QueueUnavailableError when Redis does
   * not accept the job within MAIL_ENQUEUE_TIMEOUT_MS; the worker ignores a job that arrives
   * later for an attempt that is no longer pending.
   */
  async enqueueLoginLink(loginAttemptId: string, requestId: string | null = null): Promise<void> {
    const job: LoginLinkJob = { version: 1, loginAttemptId, requestId };
    await withTimeout(this.queue.add(LOGIN_LINK_JOB, job, { jobId: loginAttemptId }), this.config.mail.enqueueTimeoutMs);
    this.metrics?.mailJobsQueued.inc();
  }
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new QueueUnavailableError()), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } catch (error) {
    if (error instanceof QueueUnavailableError) throw error;
    throw new QueueUnavailableError();
  } finally {
    clearTimeout(timer);
  }
}
