import { webhookBackoff, webhookRetryDelay, WebhookTenantBusy, WebhookTryRefused } from './webhook-queue';

const DELAYS = [5_000, 300_000, 1_800_000];

describe('webhook retry delays', () => {
  it("wait the schedule's delay after the refused try of that number, plus up to a tenth", () => {
    expect(webhookBackoff(2, DELAYS, () => 0)).toBe(300_000);
    expect(webhookBackoff(2, DELAYS, () => 0.999)).toBe(329_970);
    expect(webhookBackoff(9, DELAYS, () => 0)).toBe(1_800_000);
    const delay = webhookRetryDelay(new WebhookTryRefused('d', 3), DELAYS);
    expect(delay).toBeGreaterThanOrEqual(1_800_000);
    expect(delay).toBeLessThanOrEqual(1_980_000);
  });

  it('put a run of a busy tenant back for a second or two, whatever runs came before', () => {
    for (let i = 0; i < 20; i++) {
      const delay = webhookRetryDelay(new WebhookTenantBusy('d'), DELAYS);
      expect(delay).toBeGreaterThanOrEqual(1000);
      expect(delay).toBeLessThanOrEqual(2000);
    }
  });

  it('wait the first delay after a run that failed without a try (Postgres away, a bug)', () => {
    const delay = webhookRetryDelay(new Error('connection terminated'), DELAYS);
    expect(delay).toBeGreaterThanOrEqual(5_000);
    expect(delay).toBeLessThanOrEqual(5_500);
  });
});
