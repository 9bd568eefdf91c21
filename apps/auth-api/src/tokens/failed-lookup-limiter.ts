import { Inject, Injectable } from '@nestjs/common';
import { Clock, problem, SESAME_CONFIG, SesameConfig, TtlCache } from '@sesame/common';

const MAX_TRACKED_ADDRESSES = 100_000;
const WINDOW_MS = 60_000;

/**
 * userinfo is outside the shared per-IP limit (application backends call it per request), so a
 * flood of made-up tokens would cost one database lookup each. This counts lookups of tokens that
 * never existed per client IP, in process and in one-minute windows, and refuses an address that
 * has more than GLOBAL_RATE_LIMIT of them before looking anything up (cached answers still go out).
 */
@Injectable()
export class FailedLookupLimiter {
  private readonly failures = new TtlCache<string, { count: number }>(MAX_TRACKED_ADDRESSES);
  private readonly limit: number;

  constructor(
    private readonly clock: Clock,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.limit = config.limits.globalPerIp;
  }

  /** Throws 429 when the address has used up its failures for this window. */
  check(ip: string): void {
    const entry = this.failures.get(ip, this.clock.now().getTime());
    if (entry && entry.count >= this.limit) {
      throw problem('rate_limited', `Too many invalid tokens from this address: at most ${this.limit} per minute`, {
        headers: { 'Retry-After': String(WINDOW_MS / 1000) },
      });
    }
  }

  record(ip: string): void {
    const now = this.clock.now().getTime();
    const entry = this.failures.get(ip, now);
    if (entry) entry.count += 1;
    else this.failures.put(ip, { count: 1 }, now + WINDOW_MS);
  }
}
