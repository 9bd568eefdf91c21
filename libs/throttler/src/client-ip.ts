import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';

/**
 * The client's address, as the HTTP platform computed it: Express's `req.ip` (with the app's
 * 'trust proxy' setting) and Fastify's `request.ip` (trustProxy) both take it from the socket
 * unless TRUST_PROXY names the proxies whose X-Forwarded-For may be believed, so a forged header
 * cannot move a client to a fresh bucket. IPv6 addresses are grouped by /64 (one subscriber's
 * prefix), IPv4-mapped addresses are written as IPv4.
 */
export function clientIp(request: { ip?: unknown; socket?: { remoteAddress?: unknown } }): string {
  const ip = typeof request.ip === 'string' && request.ip ? request.ip : request.socket?.remoteAddress;
  return typeof ip === 'string' && ip ? normalizeIp(ip) : 'unknown';
}

/** The request's client address as the rate limits count it (clientIp): IPv6 grouped by /64. */
export const ClientIp = createParamDecorator((_: unknown, context: ExecutionContext): string =>
  clientIp(context.switchToHttp().getRequest()),
);
