import { backoffDelay, DEFAULT_RETRY, retryAfterSeconds } from './retry';

describe('backoffDelay', () => {
  const retry = { ...DEFAULT_RETRY, jitter: false };

  it('doubles from baseDelayMs', () => {
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, retry, null))).toEqual([500, 1000, 2000, 4000]);
  });

  it('never waits less than Retry-After', () => {
    expect(backoffDelay(0, retry, 5)).toBe(5000);
    expect(backoffDelay(3, retry, 1)).toBe(4000);
  });

  it('spreads the delay over its upper half with jitter, from the random source given', () => {
    expect(backoffDelay(2, DEFAULT_RETRY, null, () => 0)).toBe(1000);
    expect(backoffDelay(2, DEFAULT_RETRY, null, () => 0.5)).toBe(1500);
    expect(backoffDelay(2, DEFAULT_RETRY, null, () => 0.999)).toBe(1999);
    expect(backoffDelay(2, DEFAULT_RETRY, 4, () => 0)).toBe(4000);
  });
});

describe('retryAfterSeconds', () => {
  const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');

  it('reads delta-seconds', () => {
    expect(retryAfterSeconds('7')).toBe(7);
    expect(retryAfterSeconds(' 0 ')).toBe(0);
  });

  it('reads an HTTP date as the seconds until it, and a past one as 0', () => {
    expect(retryAfterSeconds('Wed, 21 Oct 2015 07:28:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Wed, 21 Oct 2015 07:28:00 GMT', now + 500)).toBe(0);
    expect(retryAfterSeconds('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
  });

  it('ignores a missing, empty or unreadable header', () => {
    expect(retryAfterSeconds(null)).toBeNull();
    expect(retryAfterSeconds('')).toBeNull();
    expect(retryAfterSeconds('soon')).toBeNull();
  });
});
