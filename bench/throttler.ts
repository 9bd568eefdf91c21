/**
 * `npm run bench -- throttler`: the latency the rate limiter adds to a real management endpoint.
 *
 * The management API runs as its own process (dist/bench/throttler-server.js) against real
 * Postgres and Redis; autocannon, another process, loads GET /api/v2/organization/{id} with a
 * tenant key. Each round runs the server with the limiter off and on (in alternating order, so
 * drift does not favour one), at each connection count; the limits are set high enough that
 * nothing is refused, so "on" pays for the full work of both guards on every request (two Lua
 * scripts in Redis: the per-IP global limit and the tenant's minute/hour/day). Bounded: about
 * rounds × 2 × connection counts × (warm-up + duration) seconds, plus start-ups.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMigrations } from '@sesame/entities';
import Redis from 'ioredis';
import { Client } from 'pg';
import { freePort, runToEnd, start, waitUntilUp } from './processes';

const ROOT = join(__dirname, '..', '..');
const AUTOCANNON = join(ROOT, 'node_modules', 'autocannon', 'autocannon.js');
const SERVER = join(__dirname, 'throttler-server.js');

type Mode = 'off' | 'on';

interface Sample {
  mode: Mode;
  connections: number;
  round: number;
  requestsPerSecond: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number };
  non2xx: number;
  errors: number;
}

interface Settings {
  durationSeconds: number;
  warmupSeconds: number;
  rounds: number;
  connections: number[];
  adminDatabaseUrl: string;
  redisUrl: string;
}

function settings(): Settings {
  const int = (name: string, fallback: number, max: number) => {
    const value = Number(process.env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${name} must be an integer from 1 to ${max}`);
    return value;
  };
  const connections = (process.env.BENCH_CONNECTIONS ?? '1,10').split(',').map(Number);
  if (connections.some((c) => !Number.isInteger(c) || c < 1 || c > 200))
    throw new Error('BENCH_CONNECTIONS must list integers from 1 to 200');
  return {
    durationSeconds: int('BENCH_DURATION', 10, 120),
    warmupSeconds: int('BENCH_WARMUP', 3, 30),
    rounds: int('BENCH_ROUNDS', 2, 10),
    connections,
    adminDatabaseUrl: process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
}

export async function runThrottlerBench(): Promise<void> {
  const s = settings();
  const id = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const database = `sesame_bench_${id}`;
  const databaseUrl = withDatabase(s.adminDatabaseUrl, database);
  const platformKey = `bench-platform-key-${randomBytes(16).toString('hex')}`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const huge = 1_000_000_000;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    MANAGEMENT_PORT: String(port),
    DATABASE_URL: databaseUrl,
    REDIS_URL: s.redisUrl,
    REDIS_PREFIX: `sesame-bench-${id}`,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    PLATFORM_API_KEY: platformKey,
    // Never refuse: "on" does all of the limiter's work on every request.
    PLAN_LIMITS: JSON.stringify({ pro: { minute: huge, hour: huge, day: huge } }),
    GLOBAL_RATE_LIMIT: '10000000',
    LOG_LEVEL: 'error',
  };

  log(
    `throttler benchmark: ${s.rounds} round(s) × limiter off/on × ${s.connections.join('/')} connection(s), ${s.warmupSeconds} s warm-up + ${s.durationSeconds} s each`,
  );
  await createDatabase(s.adminDatabaseUrl, database);
  const samples: Sample[] = [];
  try {
    await runMigrations(databaseUrl);
    const target = await withServer(env, 'on', url, () => createFixture(url, platformKey));
    log(`target: GET ${target.path} (tenant key, plan pro)`);
    for (let round = 1; round <= s.rounds; round++) {
      const order: Mode[] = round % 2 === 1 ? ['off', 'on'] : ['on', 'off'];
      for (const mode of order) {
        await withServer(env, mode, url, async () => {
          for (const connections of s.connections) {
            await autocannon(url + target.path, target.apiKey, connections, s.warmupSeconds);
            const sample = await measure(url + target.path, target.apiKey, connections, s.durationSeconds, mode, round);
            samples.push(sample);
            log(
              `round ${round} limiter ${mode.padEnd(3)} c=${String(connections).padEnd(3)} ${sample.requestsPerSecond.toFixed(0).padStart(6)} req/s  ` +
                `mean ${sample.latencyMs.mean.toFixed(2)} ms  p50 ${sample.latencyMs.p50} ms  p99 ${sample.latencyMs.p99} ms  non-2xx ${sample.non2xx}`,
            );
          }
        });
      }
    }
  } finally {
    await dropDatabase(s.adminDatabaseUrl, database).catch((error: Error) => log(`could not drop ${database}: ${error.message}`));
    await clearRedis(s.redisUrl, `sesame-bench-${id}`).catch((error: Error) => log(`could not clear Redis keys: ${error.message}`));
  }
  report(samples, s);
}

interface Fixture {
  path: string;
  apiKey: string;
}

async function createFixture(url: string, platformKey: string): Promise<Fixture> {
  const tenant = await post(url, '/api/v2/tenant', platformKey, { name: 'Bench tenant', plan: 'pro' });
  const apiKey = (tenant.apiKey as { key: string }).key;
  const organization = await post(url, '/api/v2/organization', apiKey, {
    name: 'Bench organization',
    whitelistDomains: ['https://bench.example'],
  });
  return { path: `/api/v2/organization/${organization.id as string}`, apiKey };
}

async function post(url: string, path: string, key: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function withServer<T>(env: NodeJS.ProcessEnv, mode: Mode, url: string, work: () => Promise<T>): Promise<T> {
  const server = start(process.execPath, [SERVER], { ...env, BENCH_LIMITER: mode });
  try {
    await waitUntilUp(`${url}/api/health`, server);
    return await work();
  } finally {
    await server.stop();
  }
}

async function autocannon(target: string, apiKey: string, connections: number, seconds: number): Promise<Record<string, unknown>> {
  const args = [AUTOCANNON, '-c', String(connections), '-d', String(seconds), '-j', '-n', '-H', `Authorization=Bearer ${apiKey}`, target];
  const output = await runToEnd(process.execPath, args, (seconds + 30) * 1000);
  return JSON.parse(output) as Record<string, unknown>;
}

async function measure(target: string, apiKey: string, connections: number, seconds: number, mode: Mode, round: number): Promise<Sample> {
  const result = (await autocannon(target, apiKey, connections, seconds)) as {
    requests: { average: number };
    latency: { mean: number; p50: number; p90: number; p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  };
  return {
    mode,
    connections,
    round,
    requestsPerSecond: result.requests.average,
    latencyMs: { mean: result.latency.mean, p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99 },
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

function report(samples: Sample[], s: Settings): void {
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const rows = s.connections.map((connections) => {
    const of = (mode: Mode) => samples.filter((sample) => sample.mode === mode && sample.connections === connections);
    const summarize = (mode: Mode) => ({
      requestsPerSecond: mean(of(mode).map((sample) => sample.requestsPerSecond)),
      meanMs: mean(of(mode).map((sample) => sample.latencyMs.mean)),
      p50Ms: mean(of(mode).map((sample) => sample.latencyMs.p50)),
      p99Ms: mean(of(mode).map((sample) => sample.latencyMs.p99)),
      failures: of(mode).reduce((sum, sample) => sum + sample.non2xx + sample.errors, 0),
    });
    const off = summarize('off');
    const on = summarize('on');
    return {
      connections,
      off,
      on,
      addedMeanMs: on.meanMs - off.meanMs,
      latencyRatio: on.meanMs / off.meanMs,
      throughputRatio: on.requestsPerSecond / off.requestsPerSecond,
    };
  });

  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const table = [
    line(['connections', 'limiter', 'req/s', 'mean latency', 'p50', 'p99', 'non-2xx/errors']),
    line(['---:', '---', '---:', '---:', '---:', '---:', '---:']),
    ...rows.flatMap((row) =>
      (['off', 'on'] as const).map((mode) =>
        line([
          String(row.connections),
          mode,
          row[mode].requestsPerSecond.toFixed(0),
          `${row[mode].meanMs.toFixed(2)} ms`,
          `${row[mode].p50Ms.toFixed(1)} ms`,
          `${row[mode].p99Ms.toFixed(1)} ms`,
          String(row[mode].failures),
        ]),
      ),
    ),
  ];
  const ratios = rows.map(
    (row) =>
      `c=${row.connections}: limiter adds ${row.addedMeanMs.toFixed(2)} ms mean latency; latency on/off = ${row.latencyRatio.toFixed(3)}, throughput on/off = ${row.throughputRatio.toFixed(3)}`,
  );
  process.stdout.write(`\n${table.join('\n')}\n\n${ratios.join('\n')}\n`);

  const directory = join(ROOT, 'bench', 'results');
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `throttler-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ settings: { ...s, adminDatabaseUrl: undefined }, node: process.version, rows, samples }, null, 2));
  log(`raw results: ${file}`);
  if (rows.some((row) => row.off.failures > 0 || row.on.failures > 0)) {
    throw new Error('Some requests failed or were refused: the numbers above do not measure the limiter alone');
  }
}

function withDatabase(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function createDatabase(adminUrl: string, database: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
}

async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

async function clearRedis(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
