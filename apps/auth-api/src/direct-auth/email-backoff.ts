import { EmailThrottleState } from '@sesame/entities';

const BASE_DELAY_SECONDS = 15;
const MAX_DELAY_SECONDS = 15 * 60;
/** Attempts older than this no longer count: the backoff starts again from 15 seconds. */
export const ATTEMPT_MEMORY_SECONDS = 24 * 3600;

/**
 * The throttle after one more attempt at `now`: attempt k (within 24 hours of the previous one)
 * makes the next allowed at now + 15 s · 2^(k-1), capped at 15 minutes so nobody can lock a
 * user out for long.
 */
export function nextThrottle(previous: EmailThrottleState | null, now: Date): EmailThrottleState {
  const remembered = previous && now.getTime() - previous.lastAttemptAt.getTime() < ATTEMPT_MEMORY_SECONDS * 1000 ? previous.attempts : 0;
  const attempts = remembered + 1;
  const delaySeconds = Math.min(BASE_DELAY_SECONDS * 2 ** (attempts - 1), MAX_DELAY_SECONDS);
  return { attempts, allowedDate: new Date(now.getTime() + delaySeconds * 1000), lastAttemptAt: now };
}
