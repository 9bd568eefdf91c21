import { parseScriptReply, rateLimitHeaders, retryAfterMs, tightestWindow, toSeconds, WindowState } from './rate-limit';

const state = (name: WindowState['name'], limit: number, used: number, resetMs: number, lengthMs: number): WindowState => ({
  name,
  limit,
  used,
  remaining: Math.max(0, limit - used),
  resetMs,
  lengthMs,
});

describe('rate-limit arithmetic', () => {
  it('rounds seconds up, never below zero', () => {
    expect(toSeconds(0)).toBe(0);
    expect(toSeconds(1)).toBe(1);
    expect(toSeconds(1000)).toBe(1);
    expect(toSeconds(1001)).toBe(2);
    expect(toSeconds(-5)).toBe(0);
  });

  it('reports the window with the fewest requests left, the slowest to free up on a tie', () => {
    const minute = state('minute', 10, 3, 30_000, 60_000);
    const hour = state('hour', 100, 95, 1_000_000, 3_600_000);
    const day = state('day', 1000, 995, 5_000_000, 86_400_000);
    expect(tightestWindow([minute, hour, day])).toBe(day);
    expect(tightestWindow([minute, hour])).toBe(hour);
    expect(tightestWindow([minute])).toBe(minute);
  });

  it('retries once every exhausted window has room', () => {
    const minute = state('minute', 5, 5, 20_000, 60_000);
    const hour = state('hour', 50, 50, 1_500_000, 3_600_000);
    const day = state('day', 500, 60, 80_000_000, 86_400_000);
    expect(retryAfterMs([minute, hour, day])).toBe(1_500_000);
    expect(retryAfterMs([day])).toBe(0);
  });

  it('renders the RateLimit headers of the tightest window, and the whole policy', () => {
    const windows = [
      state('minute', 5, 1, 60_000, 60_000),
      state('hour', 50, 49, 1_234_500, 3_600_000),
      state('day', 500, 49, 86_000_000, 86_400_000),
    ];
    expect(rateLimitHeaders(windows)).toEqual({
      'RateLimit-Limit': '50',
      'RateLimit-Remaining': '1',
      'RateLimit-Reset': '1235',
      'RateLimit-Policy': '5;w=60, 50;w=3600, 500;w=86400',
    });
  });

  it("decodes the script's reply", () => {
    const specs = [
      { name: 'minute' as const, limit: 2, lengthMs: 60_000 },
      { name: 'hour' as const, limit: 10, lengthMs: 3_600_000 },
    ];
    expect(parseScriptReply([0, 2, 15_000, 7, 3_000_000], specs)).toEqual({
      allowed: false,
      windows: [
        { ...specs[0], used: 2, remaining: 0, resetMs: 15_000 },
        { ...specs[1], used: 7, remaining: 3, resetMs: 3_000_000 },
      ],
    });
    expect(() => parseScriptReply([1, 2], specs)).toThrow(/Unexpected reply/);
  });
});
