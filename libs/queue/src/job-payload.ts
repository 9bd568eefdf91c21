import type { Job } from 'bull';

/** The payload versions this build reads (every job type is at version 1 today). */
export const JOB_PAYLOAD_VERSION = 1;

/**
 * A job's payload if this worker knows its version. A newer producer (a rolling upgrade that
 * reached auth-api first) may queue a payload this worker would misread: such a job is failed for
 * good (kept as failed, not retried, so a newer worker can be pointed at it) instead of being guessed at.
 */
export async function knownPayload<T extends { version: number }>(job: Job<T>): Promise<T> {
  if (job.data?.version === JOB_PAYLOAD_VERSION) return job.data;
  await job.discard();
  throw new UnknownJobVersionError(job.name, job.data?.version);
}

export class UnknownJobVersionError extends Error {
  constructor(jobName: string, version: unknown) {
    super(
      `A ${jobName} job with payload version ${JSON.stringify(version)}: this worker reads version ${JOB_PAYLOAD_VERSION} only; the job is kept as failed`,
    );
    this.name = 'UnknownJobVersionError';
  }
}
