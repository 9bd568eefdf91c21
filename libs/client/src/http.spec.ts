import { backoffDelay, basicAuthorization, DEFAULT_RETRY, formEncode, retryAfterSeconds } from './http';

describe('backoff', () => {
  const retry = { ...DEFAULT_RETRY, jitter: false };

  it('doubles from baseDelayMs', () => {
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, retry, null))).toEqual([500, 1000, 2000, 4000]);
  });

  it('never waits less than Retry-After', () => {
    expect(backoffDelay(0, retry, 5)).toBe(5000);
    expect(backoffDelay(3, retry, 1)).toBe(4000);
  });

  it('spreads the delay over its upper half with jitter', () => {
    expect(backoffDelay(2, DEFAULT_RETRY, null, () => 0)).toBe(1000);
    expect(backoffDelay(2, DEFAULT_RETRY, null, () => 1)).toBe(2000);
    expect(backoffDelay(2, DEFAULT_RETRY, 4, () => 0)).toBe(4000);
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterSeconds('7')).toBe(7);
    expect(retryAfterSeconds('Wed, 21 Oct 2015 07:28:30 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(30);
    expect(retryAfterSeconds(null)).toBeNull();
    expect(retryAfterSeconds('soon')).toBeNull();
  });
});

describe('encoding', () => {
  it('form-encodes bodies and Basic credentials (RFC 6749 §2.3.1)', () => {
    expect(formEncode({ code: 'a b+c', redirect_uri: 'https://x/cb?y=1', skipped: undefined })).toBe('code=a+b%2Bc&redirect_uri=https%3A%2F%2Fx%2Fcb%3Fy%3D1');
    expect(basicAuthorization('id', 'se:cret')).toBe(`Basic ${Buffer.from('id:se%3Acret').toString('base64')}`);
  });
});
