import type { RedisOptions } from 'ioredis';
import { SesameConfig } from '../config/sesame-config';

/**
 * Where Redis is, as ioredis options: the one place every connection of the apps is built from
 * (their shared client and its duplicates for subscriptions, and Bull's client, subscriber and
 * blocking connections). Either the one Redis of REDIS_URL (`rediss:` for TLS), or the primary
 * the sentinels name, asked again after a failover.
 */
export function redisConnection(config: SesameConfig): RedisOptions {
  const { sentinel } = config.redis;
  if (sentinel) {
    return {
      sentinels: sentinel.nodes,
      name: sentinel.name,
      username: sentinel.username ?? undefined,
      password: sentinel.password ?? undefined,
      sentinelPassword: sentinel.sentinelPassword ?? undefined,
      ...(sentinel.tls ? { tls: {}, sentinelTLS: {}, enableTLSForSentinelMode: true } : {}),
      // A failover is followed when the old primary's connection drops or it answers READONLY
      // (below). Not ioredis's failoverDetector: its sentinel connections outlive quit().
    };
  }
  const url = new URL(config.redis.url);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || 6379),
    username: decodeURIComponent(url.username) || undefined,
    password: decodeURIComponent(url.password) || undefined,
    db: Number(url.pathname.slice(1) || 0),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/** The longest wait between two reconnection tries of Bull's connections. */
export const BULL_RECONNECT_CAP_MS = 1000;

/**
 * Bull's connections (client, subscriber, blocking): where Redis is, reconnecting as Bull itself
 * does (e^attempt ms: 3, 7, 20, 55, 148, 403 ms; a linear strategy of ours that tried sooner raced
 * the reconnect Bull's close does itself, "Redis is already connecting/connected"), but at most
 * BULL_RECONNECT_CAP_MS apart. Bull's own waits grow to 1.1, 3, 8 and then 20 s: after a Redis
 * outage of a few seconds the mail queue stayed unreachable, and logins answered 503, for up to
 * 20 s after Redis was back.
 */
export function bullRedisOptions(config: SesameConfig): RedisOptions {
  return { ...redisConnection(config), retryStrategy: (attempt: number) => Math.min(Math.exp(attempt), BULL_RECONNECT_CAP_MS) };
}

/**
 * The apps' own clients (throttler, caches, usage counters, health, long-poll subscriptions):
 * a command fails within REDIS_COMMAND_TIMEOUT_MS, and the client reconnects in the background
 * so the apps recover by themselves. With a failover wait (REDIS_FAILOVER_WAIT_MS, on by default
 * with Sentinel) a command issued while Redis is away waits that much longer for the new primary
 * (queued, and resent if it was in flight) instead of failing at once.
 */
export function redisOptions(config: SesameConfig): RedisOptions {
  const { commandTimeoutMs, failoverWaitMs } = config.redis;
  const waits = failoverWaitMs > 0;
  return {
    ...redisConnection(config),
    commandTimeout: commandTimeoutMs + failoverWaitMs,
    connectTimeout: commandTimeoutMs * 2,
    enableOfflineQueue: waits,
    maxRetriesPerRequest: waits ? null : 0,
    // Reconnects soon after Redis is back (or a new primary is named), at most 2 s between tries.
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 2000),
    // A demoted primary answers writes with READONLY: reconnect (to the new primary) and resend.
    reconnectOnError: (error: Error) => (waits && error.message.startsWith('READONLY') ? 2 : false),
    // Off: a request makes at most one limiter call, and wrapping each command in a pipeline cost
    // more than the writes it saved (docs/benchmarks.md, step 5: the organization read +18 % at c=10).
    enableAutoPipelining: false,
    lazyConnect: false,
  };
}
