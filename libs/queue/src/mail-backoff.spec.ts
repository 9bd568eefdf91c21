import { cappedBackoff } from './mail-backoff';

describe('cappedBackoff', () => {
  it('doubles from the first delay', () => {
    expect([1, 2, 3].map((tries) => cappedBackoff(tries, 5000, 60_000))).toEqual([5000, 10_000, 20_000]);
  });

  it('never waits longer than the cap, however many tries failed', () => {
    expect([4, 8, 60, 1000].map((tries) => cappedBackoff(tries, 5000, 10_000))).toEqual([10_000, 10_000, 10_000, 10_000]);
  });
});
