import { LOGIN_LINK_JOB } from '@sesame/queue';
import { startMailWorker, RunningApp } from '../support/apps';
import { mailQueueOf, watchJobs } from '../support/direct-auth';
import { SmtpSink } from '../support/smtp-sink';

/**
 * A rolling upgrade can reach auth-api before the worker: a job whose payload version the worker
 * does not know is failed for good (kept for inspection, not retried), never guessed at.
 */
describe('mail jobs of an unknown payload version', () => {
  const smtp = new SmtpSink();
  let worker: RunningApp;

  beforeAll(async () => {
    await smtp.start();
    worker = await startMailWorker({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await worker.close();
    await smtp.stop();
  });

  it('are kept as failed after one try, with the reason', async () => {
    const queue = mailQueueOf(worker);
    const jobs = watchJobs(queue);
    try {
      const job = await queue.add(
        LOGIN_LINK_JOB,
        { version: 2, loginAttemptId: '0193a9c4-5b7e-7c1a-9f3e-2d4b6a8c0e12', requestId: null },
        { attempts: 5 },
      );
      expect(await jobs.settled(String(job.id))).toBe('failed');
      const failed = (await queue.getJob(job.id))!;
      expect(failed.attemptsMade).toBe(1);
      expect(failed.failedReason).toContain('payload version 2');
      expect(await failed.getState()).toBe('failed');
    } finally {
      jobs.stop();
    }
  });
});
