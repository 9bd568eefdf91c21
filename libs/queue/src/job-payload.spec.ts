import type { Job } from 'bull';
import { knownPayload, UnknownJobVersionError } from './job-payload';

const jobOf = (data: unknown) =>
  ({ name: 'login-link', data, discard: jest.fn(async () => undefined) }) as unknown as Job<{ version: number }> & { discard: jest.Mock };

describe('knownPayload', () => {
  it('hands over a payload of the version this build reads', async () => {
    const job = jobOf({ version: 1, loginAttemptId: 'a' });
    await expect(knownPayload(job)).resolves.toEqual({ version: 1, loginAttemptId: 'a' });
    expect(job.discard).not.toHaveBeenCalled();
  });

  it.each([[{ version: 2, loginAttemptId: 'a' }], [{ loginAttemptId: 'a' }], [null]])(
    'fails %j for good: discarded, so Bull does not retry it',
    async (data) => {
      const job = jobOf(data);
      await expect(knownPayload(job)).rejects.toBeInstanceOf(UnknownJobVersionError);
      expect(job.discard).toHaveBeenCalledTimes(1);
    },
  );
});
