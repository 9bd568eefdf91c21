import { nextThrottle } from './email-backoff';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000);

describe('nextThrottle', () => {
  it('doubles the wait from 15 seconds with each attempt, up to 15 minutes', () => {
    let state = nextThrottle(null, at(0));
    const waits = [(state.allowedDate.getTime() - at(0).getTime()) / 1000];
    for (let k = 2; k <= 9; k++) {
      const now = (state.allowedDate.getTime() - at(0).getTime()) / 1000;
      state = nextThrottle(state, at(now));
      waits.push((state.allowedDate.getTime() - at(now).getTime()) / 1000);
    }
    expect(waits).toEqual([15, 30, 60, 120, 240, 480, 900, 900, 900]);
    expect(state.attempts).toBe(9);
  });

  it('forgets attempts older than a day', () => {
    const first = nextThrottle(nextThrottle(null, at(0)), at(15));
    const later = nextThrottle(first, at(15 + 24 * 3600));
    expect(later.attempts).toBe(1);
    expect(later.allowedDate).toEqual(at(15 + 24 * 3600 + 15));
  });
});
