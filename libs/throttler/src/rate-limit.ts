import { WindowName } from '@sesame/common';

/** Which limit a bucket enforces: the tenant's plan, the per-address global limit, an endpoint's own limit, or a console member's. */
export type LimitScope = 'plan' | 'global' | 'endpoint' | 'member';

/** One window of a bucket, as the guard asks the store to check it. */
export interface WindowSpec {
  /** `minute`, `hour` or `day`: the name clients see in headers and problem bodies. */
  name: WindowName;
  /** Requests allowed in any rolling window of this length. */
  limit: number;
  /** Window length in milliseconds (RATE_LIMIT_WINDOWS, in seconds, times 1000). */
  lengthMs: number;
}

/** A window's state right after a hit (or a read). */
export interface WindowState extends WindowSpec {
  /** Requests counted in the window, including this one when it was allowed. */
  used: number;
  remaining: number;
  /** Milliseconds until the window has room for one more request; 0 when nothing is counted in it. */
  resetMs: number;
}

export interface HitResult {
  /** True when every window had room: the request was counted. False: nothing was counted. */
  allowed: boolean;
  windows: WindowState[];
}

/** One bucket of a request and the windows to check it against. */
export interface BucketCheck {
  bucket: string;
  windows: WindowSpec[];
}

/**
 * A store of sliding-window buckets (Redis in production). `hit` checks every window of a bucket
 * and counts the request only when all of them have room, atomically; `peek` only reads.
 * `hitAll` hits several buckets in order, in one atomic step, stopping at the first that refuses:
 * one result per bucket looked at, the last the refusal if there was one.
 */
export interface SlidingWindowStore {
  hit(bucket: string, windows: WindowSpec[], nowMs: number): Promise<HitResult>;
  hitAll(checks: BucketCheck[], nowMs: number): Promise<HitResult[]>;
  peek(bucket: string, windows: WindowSpec[], nowMs: number): Promise<HitResult>;
}

export function isSlidingWindowStore(value: unknown): value is SlidingWindowStore {
  const store = value as SlidingWindowStore | null;
  return typeof store?.hit === 'function' && typeof store.hitAll === 'function' && typeof store.peek === 'function';
}

/** Whole seconds, rounded up, so a client that waits that long is never early. */
export function toSeconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}

/**
 * The window a response reports in its RateLimit headers: the one with the fewest requests
 * left; on a tie the one that takes longest to free up (on a refusal that is the window named in
 * the problem body, and its reset equals Retry-After).
 */
export function tightestWindow(windows: WindowState[]): WindowState {
  if (windows.length === 0) throw new Error('A bucket has at least one window');
  return windows.reduce((tightest, window) =>
    window.remaining < tightest.remaining || (window.remaining === tightest.remaining && window.resetMs > tightest.resetMs)
      ? window
      : tightest,
  );
}

/** When a refused request may be retried: once every exhausted window has room again. */
export function retryAfterMs(windows: WindowState[]): number {
  return Math.max(0, ...windows.filter((window) => window.remaining === 0).map((window) => window.resetMs));
}

/** The `RateLimit-*` headers of a response (draft-ietf-httpapi-ratelimit-headers, delta-seconds). */
export function rateLimitHeaders(windows: WindowState[]): Record<string, string> {
  const window = tightestWindow(windows);
  return {
    'RateLimit-Limit': String(window.limit),
    'RateLimit-Remaining': String(window.remaining),
    'RateLimit-Reset': String(toSeconds(window.resetMs)),
    'RateLimit-Policy': windows.map((w) => `${w.limit};w=${toSeconds(w.lengthMs)}`).join(', '),
  };
}

/** Decodes the Lua script's reply: one entry per bucket looked at, in order, at least one. */
export function parseScriptReplies(reply: unknown, checks: BucketCheck[]): HitResult[] {
  if (!Array.isArray(reply) || reply.length === 0 || reply.length > checks.length) {
    throw new Error(`Unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
  }
  return reply.map((entry, i) => parseScriptReply(entry, checks[i].windows));
}

/** Decodes one bucket's entry: { allowed, used_1, reset_1, …, used_n, reset_n }. */
export function parseScriptReply(reply: unknown, windows: WindowSpec[]): HitResult {
  if (!Array.isArray(reply) || reply.length !== 1 + 2 * windows.length) {
    throw new Error(`Unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
  }
  const numbers = reply.map(Number);
  return {
    allowed: numbers[0] === 1,
    // Properties listed, not spread: this runs on every request, and a spread showed in its profile.
    windows: windows.map(({ name, limit, lengthMs }, i) => {
      const used = numbers[1 + 2 * i];
      return { name, limit, lengthMs, used, remaining: Math.max(0, limit - used), resetMs: Math.max(0, numbers[2 + 2 * i]) };
    }),
  };
}
