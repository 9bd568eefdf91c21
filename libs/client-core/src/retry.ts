/** How the client retries what Sesame did nothing with: 429s, 503s with Retry-After, and GETs that got no answer or a gateway's 502, 503 or 504. */
export interface RetryOptions {
  /** Retries after the first try (default 3). 0 turns retrying off. */
  retries: number;
  /** Delay before the first retry, doubled for each further one (default 500 ms). */
  baseDelayMs: number;
  /** A longer wait (from the backoff or Retry-After) is not waited for: the error is reported instead (default 10 s). */
  maxDelayMs: number;
  /** Spread each delay randomly over [delay/2, delay] so that many clients do not retry in step (default true). Never below Retry-After. */
  jitter: boolean;
}

export const DEFAULT_RETRY: RetryOptions = { retries: 3, baseDelayMs: 500, maxDelayMs: 10_000, jitter: true };

/**
 * The wait before retry number `attempt + 1`: baseDelayMs · 2^attempt (with jitter, in
 * [half, whole]), and never less than the server's Retry-After.
 */
export function backoffDelay(
  attempt: number,
  retry: RetryOptions,
  retryAfterSeconds: number | null,
  random: () => number = Math.random,
): number {
  const exponential = retry.baseDelayMs * 2 ** attempt;
  const jittered = retry.jitter ? exponential / 2 + (random() * exponential) / 2 : exponential;
  return Math.round(Math.max(jittered, (retryAfterSeconds ?? 0) * 1000));
}

/** Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(header: string | null, now: number = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
