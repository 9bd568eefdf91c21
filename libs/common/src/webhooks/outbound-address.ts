import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may be sent. Sesame posts to URLs its tenants choose, so it must not become a way
 * into its own network: https only (plain http to a loopback address where allowed, for tests
 * and local development), no credentials in the URL, and never an address of a private,
 * loopback, link-local or otherwise special range — checked on the URL and again, at connect time,
 * on every address its host resolves to (a name that resolves elsewhere later gains nothing).
 */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  // The unspecified address and the deprecated IPv4-compatible ones (::1 is loopback, below).
  ['::', 96],
  // NAT64, well-known and local-use: they reach IPv4 addresses through a gateway.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  // 6to4: an IPv4 address inside.
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  // Site-local (deprecated, still routed inward by some networks).
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

export interface OutboundPolicy {
  /** Plain http to a loopback address (and loopback addresses at all) are allowed. */
  allowHttpLoopback: boolean;
}

/** Whether a webhook may connect to this address. */
export function addressAllowed(address: string, policy: OutboundPolicy): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as IPv4.
  const mapped = type === 'ipv6' ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] : undefined;
  if (mapped) return addressAllowed(mapped, policy);
  if (LOOPBACK.check(address, type)) return policy.allowHttpLoopback;
  return !FORBIDDEN.check(address, type);
}

/** Why a URL cannot be a webhook endpoint; null when it can. */
export function webhookUrlProblem(value: string, policy: OutboundPolicy): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be an absolute URL';
  }
  if (url.username || url.password) return 'url must not contain credentials';
  // A trailing dot names the same host (`localhost.`).
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const literal = isIP(host) !== 0;
  const loopbackName = host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.localdomain';
  if (url.protocol === 'http:') {
    if (!policy.allowHttpLoopback || !(loopbackName || (literal && LOOPBACK.check(host, isIP(host) === 4 ? 'ipv4' : 'ipv6'))))
      return 'url must use https';
  } else if (url.protocol !== 'https:') {
    return 'url must use https';
  }
  if (literal && !addressAllowed(host, policy)) return 'url must not point to a private, loopback or link-local address';
  if (loopbackName && !policy.allowHttpLoopback) return 'url must not point to a private, loopback or link-local address';
  return null;
}

export type LookupFunction = (
  hostname: string,
  options: { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for node:http(s) requests that refuses, at connect time, a host any of whose
 * addresses is not allowed (`resolve` is the system's resolver, or a test's).
 */
export function guardedLookup(policy: OutboundPolicy, resolve: LookupFunction = dnsLookup as LookupFunction) {
  return (
    hostname: string,
    options: { all?: boolean },
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    resolve(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((entry) => !addressAllowed(entry.address, policy));
      if (refused || addresses.length === 0) {
        // Which address is not said: the try log is the tenant's, and must not map the worker's network.
        const failure: NodeJS.ErrnoException = new Error(`${hostname} resolves to an address webhooks may not reach`);
        failure.code = 'EADDRNOTALLOWED';
        return callback(failure, '', 0);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
