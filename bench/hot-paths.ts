/**
 * Scenarios 1–3: the hot paths under load, each against Sesame (on every platform in
 * BENCH_PLATFORMS), the peer (oidc-provider, for userinfo and verify) and the floor (a bare
 * node:http server doing the same essential work). Every server runs as its own process pinned
 * to the server CPU; the load generator (autocannon) is another process pinned to the other CPU.
 * Per server: a warm-up at the highest connection count, then one measurement per connection
 * count.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BenchContext, DIST, freePort, ROOT, RunningServer } from './context';
import { basicAuthorization } from './fixture';
import { LoadPhase, LoadResult, LoadSpec, PhaseResult } from './load';
import { pinned, runToEnd } from './processes';
import { ScaleData } from './scale-data';
import { log } from './settings';

export type HotScenario = 'userinfo' | 'userinfo-cached' | 'verify' | 'organization' | 'login-activity' | 'authenticate-direct';
/** Tokens the cached userinfo figure cycles through: few enough for Sesame's token cache to hold them all. */
export const CACHED_USERINFO_TOKENS = 1000;
export type ServerKind = 'sesame' | 'peer' | 'floor' | 'empty';
export type Platform = 'express' | 'fastify';

export interface Measurement extends PhaseResult {
  scenario: HotScenario;
  server: ServerKind;
  platform: Platform | null;
  /** 1-based; with BENCH_ROUNDS > 1 the report averages the rounds. */
  round: number;
}

export interface Target {
  server: ServerKind;
  platform: Platform | null;
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  variants?: LoadSpec['variants'];
  /** With single-use variants: lines per phase (warm-up first). */
  perPhase?: number[];
  /** Prepares the data (codes) and starts the server. */
  start(): Promise<RunningServer>;
  /** One request checked before the load, so that a misconfiguration fails at once. */
  sanity: { headers: Record<string, string>; body?: string };
}

const PEER_SCRIPT = join(ROOT, 'bench', 'peer-server.mjs');
const FLOOR_SCRIPT = join(DIST, 'bench', 'floor-server.js');
const EMPTY_SCRIPT = join(DIST, 'bench', 'empty-server.js');
const LOAD_SCRIPT = join(DIST, 'bench', 'load.js');
const FORM = 'application/x-www-form-urlencoded';

function label(target: Pick<Target, 'server' | 'platform'>): string {
  return target.platform ? `${target.server}/${target.platform}` : target.server;
}

export interface HotScenarioOptions {
  /** Which servers to run (default: all). */
  only?: (target: Target) => boolean;
  /** Called when the load generator starts on a server. */
  onLoad?: (server: RunningServer) => void;
  /** Called when the load is over, before the server is stopped. */
  afterLoad?: (server: RunningServer) => Promise<void>;
}

export async function runHotScenario(ctx: BenchContext, scenario: HotScenario, options: HotScenarioOptions = {}): Promise<Measurement[]> {
  const only = options.only ?? (() => true);
  const s = ctx.settings;
  const targets = (await targetsOf(ctx, scenario)).filter((target) => s.servers.includes(target.server) && only(target));
  const measurements: Measurement[] = [];
  log(
    `${scenario}: ${targets.map(label).join(', ')} × c=${s.connections.join('/')}, ${s.warmupSeconds} s warm-up + ${s.durationSeconds} s each`,
  );
  for (let round = 1; round <= s.rounds; round++) {
    // Alternate the order between rounds, so that drift on a busy machine favours no server.
    for (const target of round % 2 === 1 ? targets : [...targets].reverse()) {
      measurements.push(...(await measureTarget(ctx, scenario, target, round, options)));
    }
  }
  return measurements;
}

async function measureTarget(
  ctx: BenchContext,
  scenario: HotScenario,
  target: Target,
  round: number,
  options: HotScenarioOptions,
): Promise<Measurement[]> {
  const s = ctx.settings;
  const measurements: Measurement[] = [];
  const server = await target.start();
  try {
    await sanityCheck(server.url, target).catch((error: Error) => {
      throw new Error(`${error.message}\n${label(target)}'s output:\n${server.process.output()}`);
    });
    options.onLoad?.(server);
    const result = await load(ctx, server.url, target, loadPhases(ctx, target));
    const exited = server.process.process.exitCode ?? server.process.process.signalCode;
    if (exited !== null) throw new Error(`${label(target)} exited (${exited}) during the load:\n${server.process.output()}`);
    await options.afterLoad?.(server);
    for (const phase of result.phases) {
      if (phase.label === 'warmup') continue;
      measurements.push({ ...phase, scenario, server: target.server, platform: target.platform, round });
      log(
        `${s.rounds > 1 ? `round ${round} ` : ''}${scenario} ${label(target).padEnd(15)} c=${String(phase.connections).padEnd(3)} ${phase.requestsPerSecond.toFixed(0).padStart(6)} req/s  ` +
          `p50 ${phase.latencyMs.p50} ms  p99 ${phase.latencyMs.p99} ms  non-2xx ${phase.non2xx}  errors ${phase.errors + phase.timeouts}` +
          (phase.exhausted ? `  (codes ran out after ${phase.seconds.toFixed(1)} s)` : '') +
          (phase.failures.length ? `  first failure: ${phase.failures[0].status} ${phase.failures[0].body}` : ''),
      );
    }
  } finally {
    await server.stop();
  }
  return measurements;
}

/** A warm-up at the highest connection count (unless BENCH_WARMUP is 0), then one phase per connection count; single-use lines shared out by phase. */
export function loadPhases(ctx: BenchContext, target: Pick<Target, 'perPhase'>): LoadPhase[] {
  const s = ctx.settings;
  const phases: LoadPhase[] = [];
  if (s.warmupSeconds > 0) phases.push({ label: 'warmup', connections: Math.max(...s.connections), seconds: s.warmupSeconds });
  for (const connections of s.connections) phases.push({ label: `c${connections}`, connections, seconds: s.durationSeconds });
  if (target.perPhase) phases.forEach((phase, i) => (phase.variants = target.perPhase![s.warmupSeconds > 0 ? i : i + 1]));
  return phases;
}

export async function load(ctx: BenchContext, origin: string, target: Target, phases: LoadPhase[]): Promise<LoadResult> {
  const spec: LoadSpec = { origin, method: target.method, path: target.path, headers: target.headers, variants: target.variants, phases };
  const specFile = ctx.file(`load-${Date.now()}.json`);
  writeFileSync(specFile, JSON.stringify(spec));
  const [command, args] = pinned(ctx.settings.loadCpu, process.execPath, [LOAD_SCRIPT, specFile]);
  const seconds = phases.reduce((sum, phase) => sum + phase.seconds, 0);
  return JSON.parse(await runToEnd(command, args, (seconds + 60) * 1000)) as LoadResult;
}

export async function sanityCheck(origin: string, target: Target): Promise<void> {
  const response = await fetch(origin + target.path, { method: target.method, headers: target.sanity.headers, body: target.sanity.body });
  if (response.status !== 200)
    throw new Error(`${label(target)}: ${target.method} ${target.path} answered ${response.status}: ${await response.text()}`);
}

/** Lines per phase for single-use codes: the rate cap times each phase's length. */
function codesPerPhase(ctx: BenchContext, rate: number): number[] {
  const s = ctx.settings;
  return [s.warmupSeconds, ...s.connections.map(() => s.durationSeconds)].map((seconds) => Math.max(1, Math.ceil(rate * seconds)));
}

export async function targetsOf(ctx: BenchContext, scenario: HotScenario): Promise<Target[]> {
  switch (scenario) {
    case 'userinfo':
      return userinfoTargets(ctx, ctx.settings.userinfoTokens);
    case 'userinfo-cached':
      return userinfoTargets(ctx, CACHED_USERINFO_TOKENS);
    case 'verify':
      return verifyTargets(ctx);
    case 'organization':
      return organizationTargets(ctx);
    case 'login-activity':
      return loginActivityTargets(ctx);
    case 'authenticate-direct':
      return authenticateDirectTargets(ctx);
  }
}

/** An empty Nest route on the platform: the framework's ceiling. */
async function startEmpty(ctx: BenchContext, platform: Platform): Promise<RunningServer> {
  const port = await freePort();
  const env = { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', HTTP_PLATFORM: platform, EMPTY_PORT: String(port) };
  return ctx.startServer([EMPTY_SCRIPT], env, port, true, '/api/empty');
}

async function startFloor(ctx: BenchContext): Promise<RunningServer> {
  const port = await freePort();
  return ctx.startServer([FLOOR_SCRIPT], ctx.sesameEnv('express', ctx.nextRedisPrefix(), { FLOOR_PORT: String(port) }), port);
}

function peerEnv(ctx: BenchContext, prefix: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    REDIS_URL: ctx.settings.redisUrl,
    PEER_REDIS_PREFIX: prefix,
    PEER_CLIENT_ID: ctx.seed.clientId,
    PEER_CLIENT_SECRET: ctx.seed.clientSecret,
    ...extra,
  };
}

/** Seeds the peer's store through its models (unpinned, before the measurement), then starts it pinned. */
async function startPeer(ctx: BenchContext, prefix: string, seed: Record<string, unknown>): Promise<RunningServer> {
  const started = Date.now();
  await runToEnd(process.execPath, [PEER_SCRIPT, 'seed'], 600_000, peerEnv(ctx, prefix, { PEER_SEED: JSON.stringify(seed) }));
  log(
    `peer: seeded ${JSON.stringify(seed, (key, value: unknown) => (key === 'file' ? undefined : value))} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const port = await freePort();
  const env = peerEnv(ctx, prefix, { PEER_PORT: String(port), PEER_ISSUER: `http://127.0.0.1:${port}` });
  return ctx.startServer([PEER_SCRIPT, 'serve'], env, port, true, '/.well-known/openid-configuration');
}

async function userinfoTargets(ctx: BenchContext, count: number): Promise<Target[]> {
  const s = ctx.settings;
  const users = await ctx.data.users(count);
  const tokens = await ctx.data.accessTokens(users);
  const tokensFile = ctx.file(`userinfo-tokens-${count}.txt`);
  writeFileSync(tokensFile, `${tokens.join('\n')}\n`);
  const peerTokensFile = ctx.file(`peer-tokens-${count}.txt`);
  const sesameLike = (server: ServerKind, platform: Platform | null, start: () => Promise<RunningServer>): Target => ({
    server,
    platform,
    path: '/api/v1/userinfo',
    method: 'GET',
    headers: {},
    variants: { file: tokensFile, kind: 'bearer', reuse: true },
    start,
    sanity: { headers: { authorization: `Bearer ${tokens[0]}` } },
  });
  return [
    ...s.platforms.map((platform) => sesameLike('sesame', platform, () => ctx.startSesame('auth-api', platform))),
    {
      server: 'peer',
      platform: null,
      path: '/me',
      method: 'GET',
      headers: {},
      variants: { file: peerTokensFile, kind: 'bearer', reuse: true },
      start: () => startPeer(ctx, ctx.nextRedisPrefix(), { accounts: count, tokens: { count, file: peerTokensFile } }),
      get sanity() {
        return { headers: { authorization: `Bearer ${firstLine(peerTokensFile)}` } };
      },
    },
    sesameLike('floor', null, () => startFloor(ctx)),
  ];
}

async function verifyTargets(ctx: BenchContext): Promise<Target[]> {
  const s = ctx.settings;
  const users = await ctx.data.users(s.userinfoTokens);
  const headers = { authorization: basicAuthorization(ctx.seed.clientId, ctx.seed.clientSecret), 'content-type': FORM };
  let counter = 0;
  /** A server with its own codes: the phases' lines, then one more for the sanity check. */
  const withCodes = (
    server: ServerKind,
    platform: Platform | null,
    path: string,
    rate: number,
    start: (file: string, count: number) => Promise<RunningServer>,
  ): Target => {
    const perPhase = codesPerPhase(ctx, rate);
    const total = perPhase.reduce((sum, n) => sum + n, 0);
    const file = ctx.file(`codes-${++counter}.txt`);
    const target: Target = {
      server,
      platform,
      path,
      method: 'POST',
      headers,
      variants: { file, kind: 'body', reuse: false },
      perPhase,
      sanity: { headers },
      async start() {
        const running = await start(file, total + 1);
        target.sanity = { headers, body: lineAt(file, total) };
        return running;
      },
    };
    return target;
  };
  /**
   * Codes inserted in Postgres as the service issues them, then the server. The insert's own
   * aftermath is settled first — autovacuum of the new rows and the checkpoint writing them out —
   * so that it does not land in the measurement of whichever server runs next (verify commits each
   * code's use durably; the peer keeps its codes in Redis and would not pay it).
   */
  const sesameCodes = (start: () => Promise<RunningServer>) => async (file: string, count: number) => {
    const started = Date.now();
    await ctx.data.codes(count, users, file);
    await ctx.data.query('VACUUM ANALYZE authorization_code');
    await ctx.data.checkpoint();
    log(`verify: ${count} codes inserted and settled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return start();
  };
  return [
    ...s.platforms.map((platform) =>
      withCodes(
        'sesame',
        platform,
        '/api/v1/verify',
        s.verifyMaxRate,
        sesameCodes(() => ctx.startSesame('auth-api', platform)),
      ),
    ),
    // The peer's codes are made by its own models (Grant + AuthorizationCode) in Redis.
    withCodes('peer', null, '/token', s.peerVerifyMaxRate, (file, count) =>
      startPeer(ctx, ctx.nextRedisPrefix(), { accounts: s.userinfoTokens, codes: { count, file } }),
    ),
    withCodes(
      'floor',
      null,
      '/api/v1/verify',
      s.verifyMaxRate,
      sesameCodes(() => startFloor(ctx)),
    ),
  ];
}

async function organizationTargets(ctx: BenchContext): Promise<Target[]> {
  const s = ctx.settings;
  const headers = { authorization: `Bearer ${ctx.seed.apiKey}` };
  const target = (server: ServerKind, platform: Platform | null, start: () => Promise<RunningServer>): Target => ({
    server,
    platform,
    path: `/api/v2/organization/${ctx.seed.organizationId}`,
    method: 'GET',
    headers,
    start,
    sanity: { headers },
  });
  const empty = (platform: Platform): Target => ({
    server: 'empty',
    platform,
    path: '/api/empty',
    method: 'GET',
    headers: {},
    start: () => startEmpty(ctx, platform),
    sanity: { headers: {} },
  });
  return [
    ...s.platforms.map((platform) => target('sesame', platform, () => ctx.startSesame('management-api', platform))),
    target('floor', null, () => startFloor(ctx)),
    // The framework's ceiling, measured beside the management read: what Nest on each platform serves with nothing to do.
    ...s.platforms.map(empty),
  ];
}

/** The console's login activity, newest page (20 of the organization's attempts): Sesame vs floor. */
async function loginActivityTargets(ctx: BenchContext): Promise<Target[]> {
  const data = new ScaleData(ctx.databaseUrl, ctx.seed);
  try {
    await data.recentAttempts(100);
  } finally {
    await data.close();
  }
  return [
    ...ctx.settings.platforms.map((platform) => loginActivityTarget(ctx, 'sesame', platform)),
    loginActivityTarget(ctx, 'floor', null),
  ];
}

/** GET /v2/organization/{id}/login_attempt with the bench tenant's key, on Sesame's management API or the floor. */
export function loginActivityTarget(ctx: BenchContext, server: 'sesame' | 'floor', platform: Platform | null): Target {
  const headers = { authorization: `Bearer ${ctx.seed.apiKey}` };
  return {
    server,
    platform,
    path: `/api/v2/organization/${ctx.seed.organizationId}/login_attempt`,
    method: 'GET',
    headers,
    sanity: { headers },
    start: () => (server === 'floor' ? startFloor(ctx) : ctx.startSesame('management-api', platform!)),
  };
}

/** authenticate_direct bodies made per second of a phase (each request needs its own address: the backoff is per address). */
const LOGIN_RATE = 4000;

/** authenticate_direct with Basic credentials, each request for an address of its own (the mail jobs just queue up: no worker runs). */
export function loginTarget(ctx: BenchContext, server: 'sesame' | 'floor', platform: Platform | null): Target {
  const s = ctx.settings;
  const headers = { authorization: basicAuthorization(ctx.seed.clientId, ctx.seed.clientSecret), 'content-type': 'application/json' };
  const perPhase = [s.warmupSeconds, ...s.connections.map(() => s.durationSeconds)]
    .filter((seconds) => seconds > 0)
    .map((seconds) => seconds * LOGIN_RATE);
  const total = perPhase.reduce((sum, n) => sum + n, 0);
  const run = randomBytes(4).toString('hex');
  const file = ctx.file(`logins-${server}-${platform ?? 'node'}-${run}.txt`);
  const body = (n: number) =>
    JSON.stringify({ email: `login-${run}-${n}@bench.example`, redirect_uri: 'https://bench.example/callback', state: 'bench-state' });
  writeFileSync(file, `${Array.from({ length: total }, (_, n) => body(n)).join('\n')}\n`);
  return {
    server,
    platform,
    path: '/api/v1/authenticate_direct',
    method: 'POST',
    headers,
    variants: { file, kind: 'body', reuse: false },
    perPhase,
    sanity: { headers, body: body(total + 1) },
    start: () => (server === 'floor' ? startFloor(ctx) : ctx.startSesame('auth-api', platform!)),
  };
}

async function authenticateDirectTargets(ctx: BenchContext): Promise<Target[]> {
  return [...ctx.settings.platforms.map((platform) => loginTarget(ctx, 'sesame', platform)), loginTarget(ctx, 'floor', null)];
}

function lines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

function firstLine(file: string): string {
  return lines(file)[0];
}

function lineAt(file: string, index: number): string {
  const all = lines(file);
  if (index >= all.length) throw new Error(`${file} has ${all.length} lines, not ${index + 1}`);
  return all[index];
}
