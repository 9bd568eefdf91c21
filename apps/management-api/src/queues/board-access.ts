import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { secretsEqual } from '@sesame/common';

/** Browsers are asked for HTTP Basic (any user name, the platform key as password); API clients may send the key as a Bearer token. */
export const BOARD_CHALLENGES = ['Basic realm="Sesame queues", charset="UTF-8"', 'Bearer realm="sesame"'];

/** The key an Authorization header presents: `Bearer <key>`, or HTTP Basic with the key as password (any user name). */
export function presentedKey(authorization: string | undefined): string | null {
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(authorization ?? '');
  if (!match) return null;
  const [, scheme, credentials] = match;
  if (/^bearer$/i.test(scheme)) return credentials;
  if (!/^basic$/i.test(scheme)) return null;
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? null : decoded.slice(colon + 1);
}

/** True when the request carries the platform key (compared in constant time). */
export function hasPlatformKey(request: Pick<IncomingMessage, 'headers'>, platformKey: string): boolean {
  const header = request.headers.authorization;
  const key = presentedKey(Array.isArray(header) ? header[0] : header);
  return key !== null && secretsEqual(key, platformKey);
}

/** The 401 problem (RFC 9457) with both challenges, written on Node's response (the same on Express and Fastify). */
export function refuseBoardAccess(request: Pick<IncomingMessage, 'url'>, response: ServerResponse): void {
  const body = JSON.stringify({
    type: 'urn:sesame:error:platform_key_required',
    title: STATUS_CODES[401],
    status: 401,
    detail: 'The queue dashboard needs the platform key: HTTP Basic with the key as password, or Authorization: Bearer <key>',
    code: 'platform_key_required',
    instance: (request.url ?? '').split('?')[0],
  });
  response.statusCode = 401;
  response.setHeader('WWW-Authenticate', BOARD_CHALLENGES);
  response.setHeader('Content-Type', 'application/problem+json; charset=utf-8');
  response.setHeader('Cache-Control', 'no-store');
  response.end(body);
}
