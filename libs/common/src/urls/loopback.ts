import { isIPv4 } from 'node:net';

/** `hostname` as WHATWG URL reports it (IPv6 in brackets). */
export function isLoopbackIp(hostname: string): boolean {
  return hostname === '[::1]' || (isIPv4(hostname) && hostname.startsWith('127.'));
}

/**
 * Loopback for web redirects: the loopback IPs and `localhost`. Native apps must not use
 * `localhost` (RFC 8252 §8.3), so they check isLoopbackIp instead.
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || isLoopbackIp(hostname);
}
