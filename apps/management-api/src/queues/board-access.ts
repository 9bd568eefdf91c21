import { createHmac, timingSafeEqual } from 'node:crypto';
import { secretsEqual, sha256 } from '@sesame/common';

/** The cookie of a dashboard session in a browser (HttpOnly, SameSite=Strict, the dashboard's path only). */
export const BOARD_SESSION_COOKIE = 'sesame_queues';
export const BOARD_SESSION_SECONDS = 3600;

/** The platform key of `Authorization: Bearer <key>` (API clients), compared in constant time. */
export function bearerIsPlatformKey(authorization: string | string[] | undefined, platformKey: string): boolean {
  const match = typeof authorization === 'string' ? /^\s*bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  return match !== null && secretsEqual(match[1], platformKey);
}

/**
 * Browser sessions of the dashboard: after the operator typed the platform key into the sign-in
 * form, the browser holds `expiry.signature` for an hour, never the key itself (HTTP Basic would
 * have the browser keep sending the key until it quits). The signature is an HMAC under a key
 * derived from SECRETS_KEY, over the expiry and the platform key's hash: a new platform key ends
 * every session.
 */
export class BoardSessions {
  private readonly key: Buffer;

  constructor(secretsKey: Buffer, platformKey: string) {
    this.key = createHmac('sha256', secretsKey).update('sesame queue dashboard session').update(sha256(platformKey)).digest();
  }

  issue(now: Date): string {
    const expires = Math.floor(now.getTime() / 1000) + BOARD_SESSION_SECONDS;
    return `${expires}.${this.sign(String(expires))}`;
  }

  valid(value: string | undefined, now: Date): boolean {
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value ?? '');
    if (!match) return false;
    const expected = Buffer.from(this.sign(match[1]));
    return timingSafeEqual(expected, Buffer.from(match[2])) && Number(match[1]) * 1000 > now.getTime();
  }

  private sign(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('base64url');
  }
}
