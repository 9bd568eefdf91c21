import { ManualClock } from '@sesame/common';
import { RunningApp, startManagementApi } from '../support/apps';
import { createTenant } from '../support/fixtures';
import { limitHeaders, planLimitProblem, readTenant } from './support';

describe('rolling windows', () => {
  describe('with windows shortened by configuration (10 s "minute")', () => {
    const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
    let api: RunningApp;

    beforeAll(async () => {
      api = await startManagementApi({
        clock,
        env: {
          RATE_LIMIT_WINDOWS: JSON.stringify({ minute: 10, hour: 100, day: 1000 }),
          PLAN_LIMITS: JSON.stringify({ basic: { minute: 3, hour: 100, day: 1000 } }),
        },
      });
    });
    afterAll(() => api.close());

    const policy = '3;w=10, 100;w=100, 1000;w=1000';

    it('a burst at the end of one fixed window and the start of the next cannot double the limit', async () => {
      const tenant = await createTenant(api.url, 'basic');
      const start = new Date('2030-01-01T01:00:00Z').getTime();
      // Three requests in the last second of a fixed 10-second window…
      clock.set(new Date(start + 9_000));
      for (let i = 1; i <= 3; i++) expect((await readTenant(api.url, tenant.apiKey)).status).toBe(200);

      // …and none more at the start of the next one: the rolling window still holds them.
      clock.set(new Date(start + 10_500));
      const refused = await readTenant(api.url, tenant.apiKey);
      expect(refused.status).toBe(429);
      expect(limitHeaders(refused)).toEqual({ limit: '3', remaining: '0', reset: '9', policy, retryAfter: '9' });
      expect(refused.body).toEqual(planLimitProblem('minute', 3, 9));

      // 1 ms before they leave the window: still refused; at 10 s after them: room for three again.
      clock.set(new Date(start + 18_999));
      expect((await readTenant(api.url, tenant.apiKey)).status).toBe(429);
      clock.set(new Date(start + 19_000));
      for (let i = 1; i <= 3; i++) {
        const response = await readTenant(api.url, tenant.apiKey);
        expect(response.status).toBe(200);
        expect(limitHeaders(response)).toEqual({ limit: '3', remaining: String(3 - i), reset: '10', policy, retryAfter: undefined });
      }
      expect((await readTenant(api.url, tenant.apiKey)).status).toBe(429);
    });

    it('requests spread across a window boundary never exceed the limit in any 10 seconds', async () => {
      const tenant = await createTenant(api.url, 'basic');
      const start = new Date('2030-01-01T02:00:00Z').getTime();
      const accepted: number[] = [];
      // One attempt every 1.5 s for 30 s: a fixed-window counter would let 3 through on each side of every boundary.
      for (let t = 0; t <= 30_000; t += 1_500) {
        clock.set(new Date(start + t));
        const response = await readTenant(api.url, tenant.apiKey);
        expect([200, 429]).toContain(response.status);
        if (response.status === 200) accepted.push(t);
      }
      for (const t of accepted) expect(accepted.filter((other) => other >= t && other < t + 10_000).length).toBeLessThanOrEqual(3);
      // Exactly the limit is accepted in every window: at 0, 1.5, 3, then when the first leaves (10.5), …
      expect(accepted).toEqual([0, 1_500, 3_000, 10_500, 12_000, 13_500, 21_000, 22_500, 24_000]);
    });

    it('a refused request consumes nothing', async () => {
      const tenant = await createTenant(api.url, 'basic');
      const start = new Date('2030-01-01T03:00:00Z').getTime();
      clock.set(new Date(start));
      for (let i = 1; i <= 3; i++) expect((await readTenant(api.url, tenant.apiKey)).status).toBe(200);
      for (let i = 1; i <= 20; i++) {
        clock.set(new Date(start + 400 * i));
        expect((await readTenant(api.url, tenant.apiKey)).status).toBe(429);
      }
      // Had the refusals been counted, the window would still be full 10 s after the first three.
      clock.set(new Date(start + 10_000));
      expect((await readTenant(api.url, tenant.apiKey)).status).toBe(200);
    });
  });

  describe('the default plan limits (free: 1 per minute, 10 per hour, 100 per day), all three windows at once', () => {
    const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
    let api: RunningApp;

    beforeAll(async () => {
      // {} = no overrides: the defaults of DESIGN.md.
      api = await startManagementApi({ clock, env: { PLAN_LIMITS: '{}' } });
    });
    afterAll(() => api.close());

    it('refuses by minute, then by hour, then by day', async () => {
      const tenant = await createTenant(api.url, 'free');
      const policy = '1;w=60, 10;w=3600, 100;w=86400';
      clock.set(new Date('2030-01-02T00:00:00Z'));
      const start = clock.now().getTime();

      expect(limitHeaders(await readTenant(api.url, tenant.apiKey))).toEqual({
        limit: '1',
        remaining: '0',
        reset: '60',
        policy,
        retryAfter: undefined,
      });
      clock.advance(59);
      const byMinute = await readTenant(api.url, tenant.apiKey);
      expect(byMinute.status).toBe(429);
      expect(byMinute.body).toEqual(planLimitProblem('minute', 1, 1));
      expect(limitHeaders(byMinute)).toEqual({ limit: '1', remaining: '0', reset: '1', policy, retryAfter: '1' });

      // One a minute: the 10th of the hour at 9 min; the 11th, at 10 min, meets the hour limit.
      for (let minute = 1; minute <= 9; minute++) {
        clock.set(new Date(start + minute * 60_000));
        expect((await readTenant(api.url, tenant.apiKey)).status).toBe(200);
      }
      clock.set(new Date(start + 10 * 60_000));
      const byHour = await readTenant(api.url, tenant.apiKey);
      expect(byHour.status).toBe(429);
      expect(byHour.body).toEqual(planLimitProblem('hour', 10, 3000));
      expect(limitHeaders(byHour)).toEqual({ limit: '10', remaining: '0', reset: '3000', policy, retryAfter: '3000' });

      // Ten an hour for ten hours: the 101st request of the day meets the day limit.
      for (let hour = 1; hour <= 9; hour++) {
        for (let minute = 0; minute < 10; minute++) {
          clock.set(new Date(start + hour * 3_600_000 + minute * 60_000));
          expect((await readTenant(api.url, tenant.apiKey)).status).toBe(200);
        }
      }
      clock.set(new Date(start + 10 * 3_600_000));
      const byDay = await readTenant(api.url, tenant.apiKey);
      expect(byDay.status).toBe(429);
      expect(byDay.body).toEqual(planLimitProblem('day', 100, 14 * 3600));
      expect(limitHeaders(byDay)).toEqual({
        limit: '100',
        remaining: '0',
        reset: String(14 * 3600),
        policy,
        retryAfter: String(14 * 3600),
      });
    });
  });
});
