/**
 * The knobs of the hot-path benchmarks, all from the environment (defaults in brackets):
 *
 * BENCH_DURATION [8]            seconds measured per server and connection count
 * BENCH_WARMUP [2]              seconds of warm-up per server (at the highest connection count), not measured
 * BENCH_CONNECTIONS [10,50]     autocannon connection counts
 * BENCH_ROUNDS [2]              rounds per scenario (servers in alternating order); the report averages them
 * BENCH_PLATFORMS [express,fastify]  HTTP_PLATFORM values Sesame runs with (peer and floor have none)
 * BENCH_SERVERS [sesame,peer,floor,empty]  which servers to measure (e.g. sesame alone while iterating; empty: a bare Nest route)
 * BENCH_PIN [1]                 0: do not pin; otherwise servers on BENCH_SERVER_CPU, autocannon on BENCH_LOAD_CPU
 * BENCH_SERVER_CPU [0], BENCH_LOAD_CPU [1]
 * BENCH_USERINFO_TOKENS [100000]  distinct users and access tokens the userinfo requests cycle through (userinfo-cached: 1000)
 * BENCH_VERIFY_MAX_RATE [10000]  codes pre-generated per second of each phase for Sesame and the floor
 * BENCH_PEER_VERIFY_MAX_RATE [6000]  the same for the peer (codes made through oidc-provider's models)
 * BENCH_POOL_SIZE [10]          DATABASE_POOL_SIZE of Sesame and the floor's pg pool
 * BENCH_LOG_LEVEL [warn]        LOG_LEVEL of the Sesame apps
 * BENCH_MAIL_RATE [5]           authenticate_direct requests per second in the mail scenario (modest, so the
 *                               queue stays short and delivery time is what is measured)
 * BENCH_MAIL_COUNT [100]        how many of them
 * BENCH_MAIL_GRACE [15]         seconds to wait for the last mail after the last request
 * BENCH_DATABASE_ADMIN_URL [postgres://postgres@127.0.0.1:5432/postgres]  a throwaway database is created there
 * REDIS_URL [redis://127.0.0.1:6379]  keys under a throwaway prefix, removed at the end
 */
export interface BenchSettings {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number[];
  rounds: number;
  platforms: ('express' | 'fastify')[];
  servers: ('sesame' | 'peer' | 'floor' | 'empty')[];
  serverCpu: number | null;
  loadCpu: number | null;
  userinfoTokens: number;
  verifyMaxRate: number;
  peerVerifyMaxRate: number;
  poolSize: number;
  logLevel: string;
  mail: { rate: number; count: number; graceSeconds: number };
  adminDatabaseUrl: string;
  redisUrl: string;
}

function integer(name: string, fallback: number, min: number, max: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return value;
}

function list(name: string, fallback: string): string[] {
  return (process.env[name] ?? fallback)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

export function benchSettings(): BenchSettings {
  const connections = list('BENCH_CONNECTIONS', '10,50').map(Number);
  if (connections.length === 0 || connections.some((c) => !Number.isInteger(c) || c < 1 || c > 500)) {
    throw new Error('BENCH_CONNECTIONS must list integers from 1 to 500');
  }
  const platforms = list('BENCH_PLATFORMS', 'express,fastify');
  if (platforms.length === 0 || platforms.some((p) => p !== 'express' && p !== 'fastify')) {
    throw new Error('BENCH_PLATFORMS must list express and/or fastify');
  }
  const servers = list('BENCH_SERVERS', 'sesame,peer,floor,empty');
  if (servers.length === 0 || servers.some((server) => !['sesame', 'peer', 'floor', 'empty'].includes(server))) {
    throw new Error('BENCH_SERVERS must list sesame, peer, floor and/or empty');
  }
  const pin = process.env.BENCH_PIN !== '0';
  return {
    durationSeconds: integer('BENCH_DURATION', 8, 1, 300),
    warmupSeconds: integer('BENCH_WARMUP', 2, 0, 60),
    connections,
    rounds: integer('BENCH_ROUNDS', 2, 1, 20),
    platforms: platforms as BenchSettings['platforms'],
    servers: servers as BenchSettings['servers'],
    serverCpu: pin ? integer('BENCH_SERVER_CPU', 0, 0, 1023) : null,
    loadCpu: pin ? integer('BENCH_LOAD_CPU', 1, 0, 1023) : null,
    userinfoTokens: integer('BENCH_USERINFO_TOKENS', 100_000, 1, 1_000_000),
    verifyMaxRate: integer('BENCH_VERIFY_MAX_RATE', 10000, 10, 1_000_000),
    peerVerifyMaxRate: integer('BENCH_PEER_VERIFY_MAX_RATE', 6000, 10, 1_000_000),
    poolSize: integer('BENCH_POOL_SIZE', 10, 1, 200),
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
    mail: {
      rate: integer('BENCH_MAIL_RATE', 5, 1, 1000),
      count: integer('BENCH_MAIL_COUNT', 100, 1, 100_000),
      graceSeconds: integer('BENCH_MAIL_GRACE', 15, 1, 300),
    },
    adminDatabaseUrl: process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
}

let logName = 'bench';

/** The drills share this harness: they log under their own name. */
export function logAs(name: string): void {
  logName = name;
}

export function log(message: string): void {
  process.stderr.write(`[${logName}] ${message}\n`);
}
