/** The name jobs use to pick the capped backoff (Bull's custom backoff strategies). */
export const CAPPED_BACKOFF = 'capped-exponential';

/**
 * Exponential backoff (first, 2×first, 4×first, ...) never longer than max: after an SMTP outage
 * every waiting e-mail is tried again within max of the server's return, instead of waiting out a
 * doubling delay that has grown to minutes.
 */
export function cappedBackoff(attemptsMade: number, firstMs: number, maxMs: number): number {
  const exponent = Math.max(0, attemptsMade - 1);
  return Math.min(maxMs, firstMs * 2 ** Math.min(exponent, 30));
}
