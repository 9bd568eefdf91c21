import { LogContext } from '@sesame/common';
import { UnknownJobVersionError } from '@sesame/queue';
import type { Job } from 'bull';
import { NoticeJobs } from './notice-jobs';

/** A LogContext that records the fields each piece of work ran with. */
class RecordingLogContext extends LogContext {
  readonly runs: Record<string, unknown>[] = [];
  override run<T>(fields: Record<string, unknown>, work: () => T): T {
    this.runs.push(fields);
    return work();
  }
}

const jobOf = (data: unknown) =>
  ({ id: 7, name: 'passkey-registered', data, attemptsMade: 0, discard: jest.fn(async () => undefined) }) as unknown as Job<{
    version: number;
    requestId: string | null;
    passkeyId: string;
  }>;

describe('NoticeJobs', () => {
  it("runs the mailer on the payload's id with the job's fields on every line, and answers its outcome", async () => {
    const context = new RecordingLogContext();
    const deliver = jest.fn(async () => 'sent' as const);
    const outcome = await new NoticeJobs(context).run(jobOf({ version: 1, passkeyId: 'pk-1', requestId: 'req-1' }), 'passkeyId', deliver);
    expect(outcome).toBe('sent');
    expect(deliver).toHaveBeenCalledWith('pk-1');
    expect(context.runs).toEqual([{ requestId: 'req-1', jobId: '7', passkeyId: 'pk-1' }]);
  });

  it('fails a payload of another version for good without running the mailer', async () => {
    const job = jobOf({ version: 2, passkeyId: 'pk-1', requestId: null });
    const deliver = jest.fn(async () => 'sent' as const);
    await expect(new NoticeJobs(new RecordingLogContext()).run(job, 'passkeyId', deliver)).rejects.toBeInstanceOf(UnknownJobVersionError);
    expect(deliver).not.toHaveBeenCalled();
    expect(job.discard).toHaveBeenCalledTimes(1);
  });
});
