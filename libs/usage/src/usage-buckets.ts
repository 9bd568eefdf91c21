/** What Sesame counts per tenant, for the usage history. */
export const USAGE_METRICS = ['apiRequests', 'memberRequests', 'logins', 'mailsSent', 'mailsFailed'] as const;
export type UsageMetric = (typeof USAGE_METRICS)[number];

/** Counters are kept per minute (for two days) and per hour (for 32 days); days are sums of hours. */
export type BucketSize = 'minute' | 'hour';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** How long each kind of hash outlives its day: enough for 24 hours of minutes and 30 days of hours. */
export const KEEP_AFTER_DAY_MS: Record<BucketSize, number> = { minute: DAY_MS, hour: 31 * DAY_MS };

const BUCKET_MS: Record<BucketSize, number> = { minute: MINUTE_MS, hour: HOUR_MS };

/** Start of the UTC day of a time, in milliseconds. */
export function dayStart(time: number): number {
  return time - (time % DAY_MS);
}

/**
 * Where one counted event goes: a Redis hash per tenant, bucket size and UTC day, whose fields are
 * `<metric>:<bucket index in the day>`. The tenant is the hash tag, so one tenant's hashes share a
 * Redis Cluster slot.
 */
export function bucketOf(
  prefix: string,
  tenantId: string,
  size: BucketSize,
  time: number,
): { key: string; index: number; expiresAt: number } {
  const day = dayStart(time);
  return {
    key: hashKey(prefix, tenantId, size, day),
    index: Math.floor((time - day) / BUCKET_MS[size]),
    expiresAt: day + DAY_MS + KEEP_AFTER_DAY_MS[size],
  };
}

export function hashKey(prefix: string, tenantId: string, size: BucketSize, day: number): string {
  return `${prefix}:usage:{tenant:${tenantId}}:${size}:${dateOf(day)}`;
}

/** The last day's YYYY-MM-DD, remembered: every counted request asks for today's. */
let lastDay = { day: NaN, date: '' };

function dateOf(day: number): string {
  if (day !== lastDay.day) lastDay = { day, date: new Date(day).toISOString().slice(0, 10) };
  return lastDay.date;
}

export function field(metric: UsageMetric, index: number): string {
  return `${metric}:${index}`;
}
