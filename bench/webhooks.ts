/**
 * `npm run bench -- webhooks`: what three subscribed webhook endpoints cost a login.
 *
 * Two tenants in one run, against the same apps: tenant A has three endpoints subscribed to every
 * event, pointing at three receivers in this process (http on 127.0.0.1, 204 at once); tenant B
 * has none. auth-api is pinned to the server CPU; the mail-worker (dispatching and delivering) and
 * the receivers run on the load CPU, the worker at a lower priority than the load generator (in
 * production the worker has CPUs of its own and the clients are elsewhere), and Postgres and Redis
 * run as usual, shared by all; autocannon (another process, pinned to the load CPU) completes
 * logins with POST /v1/login_code, each on a pending attempt of its own, written straight to
 * Postgres beforehand with a known code (its verifier made by LoginCodes with the run's
 * SECRETS_KEY, as the service stores it), every one for a new address: a login writes
 * `user.created` and `user.signed_in` in its transaction, for A and B alike.
 *
 * A and B are measured in alternating order (A B, then B A, …), each a warm-up and a measured
 * phase; after each phase the run waits until every event is dispatched and every delivery done,
 * so that no phase pays for another's deliveries. The receivers count what arrived (every event of
 * A at every endpoint, nothing of B) and the lag from the event's timestamp to its arrival; a
 * paced series of logins before the rounds gives the lag when the worker has no backlog.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SMTPServer } from 'smtp-server';
import { LoginCodes } from '@sesame/common';
import { BenchContext, DIST, RESULTS, RunningServer } from './context';
import { basicAuthorization, BenchData, createDatabase, logSeed, REDIRECT_URI, Seed, seedThroughApi } from './fixture';
import { Platform } from './hot-paths';
import { LoadPhase, LoadResult, LoadSpec, PhaseResult } from './load';
import { describeMachine, machineLine } from './machine';
import { percentiles, Percentiles } from './mail';
import { pinned, pinProcess, reniceProcess, runToEnd } from './processes';
import { benchSettings, BenchSettings, log } from './settings';

const LOAD_SCRIPT = join(DIST, 'bench', 'load.js');
/** Tenant A: BENCH_WEBHOOK_ENDPOINTS endpoints (3); tenant B: none. */
type Tenant = 'A' | 'B';
/** A login's events when it creates its user: user.created and user.signed_in. */
const LOGIN_EVENT_TYPES = ['user.created', 'user.signed_in'];

/**
 * Knobs (environment, defaults in brackets), on top of bench/settings.ts's BENCH_ROUNDS [2],
 * BENCH_PIN, BENCH_SERVER_CPU, BENCH_LOAD_CPU, BENCH_POOL_SIZE, BENCH_LOG_LEVEL,
 * BENCH_DATABASE_ADMIN_URL, REDIS_URL; for this scenario BENCH_DURATION defaults to 5,
 * BENCH_WARMUP to 1, BENCH_CONNECTIONS to 10 and BENCH_PLATFORMS to express:
 *
 * BENCH_WEBHOOK_MAX_RATE [1500]  attempts written per second of each phase (a phase that uses them up stops early and says so)
 * BENCH_WEBHOOK_PRIME [6]       seconds of tenant B's logins after auth-api starts, not measured: the JIT's warm-up (a 2 s warm-up alone left the first phase slower)
 * BENCH_WEBHOOK_PACED [40]       logins of tenant A at BENCH_WEBHOOK_PACED_RATE [10]/s before the rounds: the lag with no backlog
 * BENCH_WEBHOOK_DRAIN [150]      seconds to wait, after a phase, for every delivery to be done
 * BENCH_WEBHOOK_ENDPOINTS [3]    tenant A's endpoints; 0 makes a control run (A like B: the harness alone, the ratio should be ≈ 1)
 * BENCH_WEBHOOK_WORKER [load]    where the mail-worker runs: load (on the load generator's CPU, with the receivers), any (unpinned, like Postgres and Redis: the shared-core figure) or server (on auth-api's CPU)
 * BENCH_WEBHOOK_WORKER_NICE [19] the worker's niceness (0: the load generator's priority)
 * BENCH_WEBHOOK_WORKER_PHASES [running]  running, or stopped: the worker is stopped (SIGSTOP) from each phase's warm-up to its end and continued for the drain, so that A's phases measure the login path alone (its outbox rows), not the machine's capacity for deliveries beside it
 * WEBHOOK_DISPATCH_INTERVAL_MS, WEBHOOK_TENANT_CONCURRENCY, …  passed on to the apps like every variable of the environment (defaults: 1000, 4)
 */
interface WebhookSettings extends BenchSettings {
  /** Tenant A's endpoints (0: a control run, A like B). */
  endpoints: number;
  maxRate: number;
  primeSeconds: number;
  paced: { count: number; rate: number };
  drainSeconds: number;
  worker: 'any' | 'server' | 'load';
  workerNiceness: number;
  /** stopped: no delivery runs during a phase (the login path's own cost); running: the deliveries share the machine. */
  workerDuringPhases: 'running' | 'stopped';
}

function webhookSettings(): WebhookSettings {
  const base = benchSettings();
  const int = (name: string, fallback: number, min: number, max: number) => {
    const value = Number(process.env[name] ?? fallback);
    if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be an integer from ${min} to ${max}`);
    return value;
  };
  const worker = process.env.BENCH_WEBHOOK_WORKER ?? 'load';
  if (worker !== 'any' && worker !== 'server' && worker !== 'load') throw new Error('BENCH_WEBHOOK_WORKER must be any, server or load');
  const workerDuringPhases = process.env.BENCH_WEBHOOK_WORKER_PHASES ?? 'running';
  if (workerDuringPhases !== 'running' && workerDuringPhases !== 'stopped')
    throw new Error('BENCH_WEBHOOK_WORKER_PHASES must be running or stopped');
  return {
    ...base,
    // Shorter than the other scenarios' phases: every delivery of a phase is waited for before the next.
    durationSeconds: process.env.BENCH_DURATION ? base.durationSeconds : 5,
    warmupSeconds: process.env.BENCH_WARMUP ? base.warmupSeconds : 1,
    connections: process.env.BENCH_CONNECTIONS ? base.connections : [10],
    platforms: process.env.BENCH_PLATFORMS ? base.platforms : ['express'],
    endpoints: int('BENCH_WEBHOOK_ENDPOINTS', 3, 0, 10),
    maxRate: int('BENCH_WEBHOOK_MAX_RATE', 1500, 10, 100_000),
    primeSeconds: int('BENCH_WEBHOOK_PRIME', 6, 0, 120),
    paced: { count: int('BENCH_WEBHOOK_PACED', 40, 0, 10_000), rate: int('BENCH_WEBHOOK_PACED_RATE', 10, 1, 1000) },
    drainSeconds: int('BENCH_WEBHOOK_DRAIN', 150, 1, 3600),
    worker,
    workerNiceness: int('BENCH_WEBHOOK_WORKER_NICE', 19, 0, 19),
    workerDuringPhases,
  };
}

/** One measured phase: a tenant's logins at one connection count in one round. */
interface Sample extends PhaseResult {
  platform: Platform;
  tenant: Tenant;
  round: number;
  /** auth-api's CPU time per completed login (user + system), ms. */
  authCpuMsPerLogin: number;
  /** The worker's CPU time during the phase, as a share of one core. */
  workerCpuShare: number;
  /** Both cores' busy share during the phase (everything on the machine). */
  machineBusyShare: number;
  /** From the end of the phase until every event was dispatched and every delivery done. */
  settleMs: number;
  settled: boolean;
  /** A: deliveries per second arriving during the phase (of any earlier event: the queue is first in, first out), and after it until all were done. */
  deliveryRate: { during: number; after: number } | null;
  /** A: the phase's events × the endpoints. */
  expectedDeliveries: number;
  lagMs: Percentiles | null;
}

interface Arrival {
  receiver: number;
  eventId: string;
  type: string;
  email: string;
  organizationId: string;
  /** Wall clock, as the event's timestamp is. */
  at: number;
  lagMs: number;
}

/** The three receivers: each answers 204 at once and records what arrived, when. */
class Receivers {
  private readonly servers: Server[] = [];
  readonly arrivals: Arrival[] = [];
  private readonly seen = new Set<string>();
  duplicates = 0;
  malformed = 0;

  async start(count: number): Promise<string[]> {
    const urls: string[] = [];
    for (let receiver = 0; receiver < count; receiver++) {
      const server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const at = Date.now();
          response.writeHead(204).end();
          this.record(receiver, String(request.headers['webhook-id'] ?? ''), Buffer.concat(chunks).toString('utf8'), at);
        });
      });
      server.keepAliveTimeout = 30_000;
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      this.servers.push(server);
      urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/sesame-webhooks`);
    }
    return urls;
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
    );
  }

  /** Distinct (receiver, event) arrivals of an organization's events. */
  distinct(organizationId: string): number {
    return this.arrivals.filter((arrival) => arrival.organizationId === organizationId).length;
  }

  private record(receiver: number, eventId: string, raw: string, at: number): void {
    let body: { type?: string; timestamp?: string; data?: { user?: { email?: string; organizationId?: string } } };
    try {
      body = JSON.parse(raw) as typeof body;
    } catch {
      this.malformed += 1;
      return;
    }
    const key = `${receiver}|${eventId}`;
    if (this.seen.has(key)) {
      this.duplicates += 1;
      return;
    }
    this.seen.add(key);
    const created = Date.parse(body.timestamp ?? '');
    if (!eventId || !body.type || Number.isNaN(created)) this.malformed += 1;
    this.arrivals.push({
      receiver,
      eventId,
      type: body.type ?? '',
      email: body.data?.user?.email ?? '',
      organizationId: body.data?.user?.organizationId ?? '',
      at,
      lagMs: at - created,
    });
  }
}

/** Pending login attempts, each with its own known code, as the service stores them. */
class Attempts {
  private readonly codes: LoginCodes;

  constructor(
    private readonly data: BenchData,
    secretsKey: string,
  ) {
    this.codes = new LoginCodes(Buffer.from(secretsKey, 'hex'));
  }

  /**
   * `count` pending attempts of the application, for new addresses `<tag>.<n>@bench.example`, valid
   * for an hour, their mail recorded as sent (so the worker's sweeper leaves them alone). Returns the
   * request bodies of POST /v1/login_code, in order.
   */
  async write(seed: Seed, tag: string, count: number): Promise<string[]> {
    const bodies: string[] = [];
    const batch = 5000;
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 3600 * 1000);
    for (let start = 0; start < count; start += batch) {
      const size = Math.min(batch, count - start);
      const emails: string[] = [];
      const hashes: Buffer[] = [];
      const verifiers: Buffer[] = [];
      const sentences: string[] = [];
      const codes: string[] = [];
      for (let i = 0; i < size; i++) {
        // The token itself is never needed: the attempt is used by its code.
        const tokenHash = randomBytes(32);
        const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
        emails.push(`${tag}.${start + i}@bench.example`);
        hashes.push(tokenHash);
        verifiers.push(this.codes.verifier(tokenHash, code));
        sentences.push(`bench sentence ${randomBytes(12).toString('hex')}`);
        codes.push(code);
      }
      const rows = await this.data.query<{ id: string; email: string }>(
        `INSERT INTO login_attempt (organization_id, application_id, email, token_hash, code_verifier, sentence, state, redirect_uri, flow,
                                    status, expires_at, mail_queued_at, mail_sent_at, created_at)
         SELECT $1, $2, email, hash, verifier, sentence, 'bench-state', $3, 'direct', 'pending', $4, $5, $5, $5
           FROM unnest($6::varchar[], $7::bytea[], $8::bytea[], $9::varchar[]) AS a(email, hash, verifier, sentence)
         RETURNING id, email`,
        [seed.organizationId, seed.applicationId, REDIRECT_URI, expiresAt, now, emails, hashes, verifiers, sentences],
      );
      const ids = new Map(rows.map((row) => [row.email, row.id]));
      emails.forEach((email, i) => bodies.push(JSON.stringify({ loginAttemptId: ids.get(email), code: codes[i] })));
    }
    return bodies;
  }
}

interface Tenants {
  A: Seed;
  B: Seed;
}

export async function runWebhooksBench(): Promise<void> {
  const s = webhookSettings();
  const machine = await describeMachine(s.adminDatabaseUrl, s.redisUrl);
  log(`machine: ${machineLine(machine, loadavg())}`);
  log(
    `webhooks: tenant A (${s.endpoints} endpoints, every event) vs tenant B (none), ${s.platforms.join('/')}, c=${s.connections.join('/')}, ` +
      `${s.rounds} round(s) × A/B, ${s.warmupSeconds} s warm-up + ${s.durationSeconds} s each; auth-api on CPU ${s.serverCpu ?? 'any'}, ` +
      `load on CPU ${s.loadCpu ?? 'any'}, worker ${workerPlace(s)}`,
  );
  const started = Date.now();
  const ctx = new BenchContext(s);
  const receivers = new Receivers();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onData: (stream, _session, callback) => {
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  const servers: RunningServer[] = [];
  const samples: Sample[] = [];
  let paced: { logins: number; lagMs: Percentiles } | null = null;
  let check: DeliveryCheck | undefined;
  const prefix = ctx.nextRedisPrefix();
  const webhookEnv = { WEBHOOK_ALLOW_HTTP_LOOPBACK: 'on' };
  try {
    log(`throwaway database ${ctx.database}, Redis prefix ${prefix}`);
    ctx.databaseUrl = await createDatabase(s.adminDatabaseUrl, ctx.database);
    const urls = await receivers.start(s.endpoints);
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
    const management = await ctx.startSesame('management-api', 'express', { pin: false, redisPrefix: prefix, env: webhookEnv });
    let seeded: Tenants;
    try {
      seeded = { A: await seedThroughApi(management.url, ctx.platformKey), B: await seedThroughApi(management.url, ctx.platformKey) };
      for (const url of urls) await post(management.url, '/api/v2/tenant/webhook_endpoint', seeded.A.apiKey, { url });
    } finally {
      await management.stop();
    }
    const tenants = seeded;
    logSeed(tenants.A);
    logSeed(tenants.B);
    ctx.seed = tenants.B;
    ctx.data = new BenchData(ctx.databaseUrl, tenants.B);
    log(`tenant A: ${s.endpoints} endpoints (every event) → ${urls.join(', ')}; tenant B: none`);

    // Every attempt of the run, before anything is measured.
    const attempts = new Attempts(ctx.data, ctx.secretsKey);
    const files = new Map<string, string>();
    const writing = performance.now();
    let written = 0;
    const write = async (tenant: Tenant, tag: string, count: number) => {
      const bodies = await attempts.write(tenants[tenant], tag, count);
      written += bodies.length;
      const file = ctx.file(`${tag}.txt`);
      writeFileSync(file, `${bodies.join('\n')}\n`);
      files.set(tag, file);
    };
    for (const platform of s.platforms) {
      for (const tenant of ['A', 'B'] as const) await write(tenant, tagOf(platform, 0, 0, tenant, 'sanity'), 1);
      if (s.primeSeconds > 0) await write('B', tagOf(platform, 0, 0, 'B', 'prime'), s.maxRate * s.primeSeconds);
      for (const c of s.connections) {
        for (let round = 1; round <= s.rounds; round++) {
          for (const tenant of ['A', 'B'] as const) {
            if (s.warmupSeconds > 0) await write(tenant, tagOf(platform, c, round, tenant, 'warmup'), s.maxRate * s.warmupSeconds);
            await write(tenant, tagOf(platform, c, round, tenant, 'measured'), s.maxRate * s.durationSeconds);
          }
        }
      }
    }
    if (s.paced.count > 0) await write('A', 'paced', s.paced.count);
    // Statistics and dirty pages settled now, not by autovacuum and a checkpoint during the first phases.
    await ctx.data.query('VACUUM ANALYZE');
    await ctx.data.checkpoint();
    log(`${written} pending login attempts written, vacuumed and checkpointed in ${((performance.now() - writing) / 1000).toFixed(1)} s`);

    const worker = await ctx.startSesame('mail-worker', 'express', {
      pin: s.worker !== 'any',
      cpu: s.worker === 'load' ? s.loadCpu : s.serverCpu,
      redisPrefix: prefix,
      // The maintenance job (retention) is not what is measured: off. No mail is sent, but the worker's health wants an SMTP server.
      env: { ...webhookEnv, MAINTENANCE_INTERVAL_SECONDS: '0', SMTP_URL: smtpUrl },
    });
    servers.push(worker);
    if (s.workerNiceness > 0) reniceProcess(worker.process.process.pid!, s.workerNiceness);
    // The receivers (this process) stand for the tenants' servers: beside the worker, off auth-api's CPU.
    if (s.worker === 'load' && s.loadCpu !== null) pinProcess(process.pid, s.loadCpu);
    const settle = () => settleDeliveries(ctx.data, receivers, tenants.A, s.endpoints, s.drainSeconds * 1000);

    for (const platform of s.platforms) {
      const auth = await ctx.startSesame('auth-api', platform, { redisPrefix: prefix });
      try {
        const headers = (tenant: Tenant) => ({
          authorization: basicAuthorization(tenants[tenant].clientId, tenants[tenant].clientSecret),
          'content-type': 'application/json',
        });
        // One login each, checked, and its events through to the receivers: a misconfiguration fails at once.
        for (const tenant of ['A', 'B'] as const) {
          const body = readFileSync(files.get(tagOf(platform, 0, 0, tenant, 'sanity'))!, 'utf8').trim();
          const answer = await loginOnce(auth.url, headers(tenant), body);
          if (answer.status !== 200)
            throw new Error(`${platform}: POST /api/v1/login_code for tenant ${tenant} answered ${answer.status}: ${answer.body}`);
        }
        const sane = await settle();
        if (!sane.settled) throw new Error(`The sanity logins' deliveries did not all arrive:\n${worker.process.output()}`);

        if (paced === null && s.paced.count > 0)
          paced = await pacedLogins(auth.url, headers('A'), files.get('paced')!, s, receivers, settle);

        // The JIT's warm-up, just before the first phase: tenant B's logins (the same code as A's, and no deliveries to wait for).
        if (s.primeSeconds > 0) {
          const primed = await runLoad(ctx, auth.url, headers('B'), files.get(tagOf(platform, 0, 0, 'B', 'prime'))!, {
            label: 'prime',
            connections: Math.max(...s.connections),
            seconds: s.primeSeconds,
          });
          log(
            `${platform}: primed with ${primed.phases[0].requests} logins of B in ${primed.phases[0].seconds.toFixed(1)} s (not measured)`,
          );
          await settle();
        }

        for (const c of s.connections) {
          for (let round = 1; round <= s.rounds; round++) {
            // Alternate the order between rounds, so that drift on a busy machine favours neither tenant.
            for (const tenant of round % 2 === 1 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
              const sample = await measurePhase(ctx, auth, worker, receivers, {
                platform,
                tenant,
                round,
                connections: c,
                headers: headers(tenant),
                warmupFile: s.warmupSeconds > 0 ? files.get(tagOf(platform, c, round, tenant, 'warmup'))! : null,
                measuredFile: files.get(tagOf(platform, c, round, tenant, 'measured'))!,
                tag: tagOf(platform, c, round, tenant, 'measured'),
                endpoints: s.endpoints,
                workerStopped: s.workerDuringPhases === 'stopped',
                settle,
              });
              samples.push(sample);
            }
          }
        }
      } finally {
        await auth.stop();
      }
    }
    check = await deliveryCheck(ctx.data, receivers, tenants, s.endpoints);
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await receivers.stop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await ctx.tearDown();
  }

  const loadAfter = loadavg();
  const output = report(s, machineLine(machine, loadAfter), samples, paced, check!, (Date.now() - started) / 1000);
  process.stdout.write(`\n${output.text}\n`);
  mkdirSync(RESULTS, { recursive: true });
  const file = join(RESULTS, `webhooks-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const { adminDatabaseUrl: _admin, ...publicSettings } = s;
  writeFileSync(
    file,
    JSON.stringify(
      { settings: publicSettings, machine, loadAverageAfter: loadAfter, samples, paced, deliveries: check, verdicts: output.verdicts },
      null,
      2,
    ),
  );
  log(`raw results: ${file}`);
  const failed = output.verdicts.filter((verdict) => !verdict.pass);
  log(failed.length ? `${failed.length} of ${output.verdicts.length} targets FAIL` : `all ${output.verdicts.length} targets PASS`);
}

function workerPlace(s: WebhookSettings): string {
  const niceness = s.workerNiceness > 0 ? `, niceness ${s.workerNiceness}` : '';
  if (s.worker === 'any') return `unpinned${niceness}`;
  return s.worker === 'server'
    ? `on CPU ${s.serverCpu ?? 'any'} (with auth-api${niceness})`
    : `on CPU ${s.loadCpu ?? 'any'} (with the load generator and the receivers${niceness})`;
}

function tagOf(
  platform: Platform,
  connections: number,
  round: number,
  tenant: Tenant,
  kind: 'sanity' | 'prime' | 'warmup' | 'measured',
): string {
  return `wh-${platform}-c${connections}-r${round}-${tenant.toLowerCase()}-${kind}`;
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

async function loginOnce(origin: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${origin}/api/v1/login_code`, { method: 'POST', headers, body });
  return { status: response.status, body: await response.text() };
}

/**
 * Waits until every event is dispatched, no delivery is pending and every login event of tenant A
 * arrived at every receiver (or the time is up). Polls Postgres; runs only between phases.
 */
async function settleDeliveries(
  data: BenchData,
  receivers: Receivers,
  tenantA: Seed,
  endpoints: number,
  timeoutMs: number,
): Promise<{ settled: boolean; ms: number; expected: number }> {
  const from = performance.now();
  for (;;) {
    const [row] = await data.query<{ undispatched: string; pending: string; events: string }>(
      `SELECT (SELECT count(*) FROM webhook_event WHERE dispatched_at IS NULL) AS undispatched,
              (SELECT count(*) FROM webhook_delivery WHERE status = 'pending') AS pending,
              (SELECT count(*) FROM webhook_event WHERE organization_id = $1 AND type = ANY($2)) AS events`,
      [tenantA.organizationId, LOGIN_EVENT_TYPES],
    );
    const expected = Number(row.events) * endpoints;
    if (Number(row.undispatched) === 0 && Number(row.pending) === 0 && receivers.distinct(tenantA.organizationId) >= expected) {
      return { settled: true, ms: performance.now() - from, expected };
    }
    if (performance.now() - from > timeoutMs) return { settled: false, ms: performance.now() - from, expected };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Logins of tenant A at a modest fixed rate from this process: the delivery lag with no backlog. */
async function pacedLogins(
  origin: string,
  headers: Record<string, string>,
  file: string,
  s: WebhookSettings,
  receivers: Receivers,
  settle: () => Promise<{ settled: boolean }>,
): Promise<{ logins: number; lagMs: Percentiles }> {
  const bodies = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const start = performance.now();
  const answers: Promise<{ status: number; body: string }>[] = [];
  for (let i = 0; i < bodies.length; i++) {
    const wait = start + (i * 1000) / s.paced.rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    answers.push(loginOnce(origin, headers, bodies[i]));
  }
  const refused = (await Promise.all(answers)).filter((answer) => answer.status !== 200);
  if (refused.length) throw new Error(`${refused.length} paced logins refused, e.g. ${refused[0].status} ${refused[0].body}`);
  if (!(await settle()).settled) throw new Error('The paced logins’ deliveries did not all arrive');
  const lags = receivers.arrivals.filter((arrival) => arrival.email.startsWith('paced.')).map((arrival) => arrival.lagMs);
  const result = { logins: bodies.length, lagMs: percentiles(lags) };
  log(
    `paced: ${result.logins} logins of A at ${s.paced.rate}/s, ${lags.length} deliveries; lag p50 ${result.lagMs.p50} ms, p99 ${result.lagMs.p99} ms, max ${result.lagMs.max} ms`,
  );
  return result;
}

interface PhasePlan {
  platform: Platform;
  tenant: Tenant;
  round: number;
  connections: number;
  headers: Record<string, string>;
  warmupFile: string | null;
  measuredFile: string;
  tag: string;
  endpoints: number;
  /** The worker stopped from the warm-up to the end of the phase (BENCH_WEBHOOK_WORKER_PHASES=stopped). */
  workerStopped: boolean;
  settle: () => Promise<{ settled: boolean; ms: number; expected: number }>;
}

async function measurePhase(
  ctx: BenchContext,
  auth: RunningServer,
  worker: RunningServer,
  receivers: Receivers,
  plan: PhasePlan,
): Promise<Sample> {
  const s = ctx.settings;
  const workerPid = worker.process.process.pid!;
  const authPid = auth.process.process.pid!;
  if (plan.workerStopped) process.kill(workerPid, 'SIGSTOP');
  let before: { auth: number; worker: number; machine: { busy: number; total: number }; at: number; wall: number };
  let result: Awaited<ReturnType<typeof runLoad>>;
  try {
    if (plan.warmupFile)
      await runLoad(ctx, auth.url, plan.headers, plan.warmupFile, {
        label: 'warmup',
        connections: plan.connections,
        seconds: s.warmupSeconds,
      });
    before = { auth: cpuMs(authPid), worker: cpuMs(workerPid), machine: machineTicks(), at: performance.now(), wall: Date.now() };
    result = await runLoad(ctx, auth.url, plan.headers, plan.measuredFile, {
      label: 'measured',
      connections: plan.connections,
      seconds: s.durationSeconds,
    });
  } finally {
    if (plan.workerStopped) process.kill(workerPid, 'SIGCONT');
  }
  const phaseEnd = Date.now();
  const machine = machineTicks();
  const elapsedMs = performance.now() - before.at;
  const phase = result.phases[0];
  const authCpu = cpuMs(authPid) - before.auth;
  const workerCpu = cpuMs(workerPid) - before.worker;
  for (const [name, server] of [
    ['auth-api', auth],
    ['mail-worker', worker],
  ] as const) {
    const exited = server.process.process.exitCode ?? server.process.process.signalCode;
    if (exited !== null) throw new Error(`${name} exited (${exited}) during the load:\n${server.process.output()}`);
  }
  const settled = await plan.settle();
  const prefix = `${plan.tag}.`;
  const arrivals = plan.tenant === 'A' ? receivers.arrivals.filter((arrival) => arrival.email.startsWith(prefix)) : [];
  const [events] = await ctx.data.query<{ count: string }>(
    `SELECT count(*) FROM webhook_event WHERE type = ANY($1) AND payload->'user'->>'email' LIKE $2`,
    [LOGIN_EVENT_TYPES, `${plan.tag}.%`],
  );
  const sample: Sample = {
    ...phase,
    platform: plan.platform,
    tenant: plan.tenant,
    round: plan.round,
    authCpuMsPerLogin: phase.requests > 0 ? authCpu / phase.requests : NaN,
    workerCpuShare: workerCpu / elapsedMs,
    machineBusyShare: (machine.busy - before.machine.busy) / Math.max(1, machine.total - before.machine.total),
    settleMs: settled.ms,
    settled: settled.settled,
    deliveryRate:
      plan.tenant === 'A'
        ? {
            during:
              (receivers.arrivals.filter((arrival) => arrival.at >= before.wall && arrival.at <= phaseEnd).length * 1000) /
              (phaseEnd - before.wall),
            after: (receivers.arrivals.filter((arrival) => arrival.at > phaseEnd).length * 1000) / Math.max(1, settled.ms),
          }
        : null,
    expectedDeliveries: plan.tenant === 'A' ? Number(events.count) * plan.endpoints : 0,
    lagMs: plan.tenant === 'A' ? percentiles(arrivals.map((arrival) => arrival.lagMs)) : null,
  };
  log(
    `${plan.platform} c=${plan.connections} round ${plan.round} tenant ${plan.tenant}: ${phase.requestsPerSecond.toFixed(0)} logins/s, ` +
      `p50 ${phase.latencyMs.p50} ms, p99 ${phase.latencyMs.p99} ms, non-2xx ${phase.non2xx}, errors ${phase.errors + phase.timeouts}; ` +
      `auth-api ${sample.authCpuMsPerLogin.toFixed(2)} CPU ms/login, worker ${(sample.workerCpuShare * 100).toFixed(0)} % of a core, machine ${(sample.machineBusyShare * 100).toFixed(0)} % busy; ` +
      (plan.tenant === 'A'
        ? `${sample.deliveryRate!.during.toFixed(0)} deliveries/s during the phase, ${sample.deliveryRate!.after.toFixed(0)}/s after it; ` +
          `the phase's ${sample.expectedDeliveries} all ${settled.settled ? 'done' : 'NOT done'} ${(settled.ms / 1000).toFixed(1)} s after it, ` +
          `lag p50 ${sample.lagMs!.p50} ms, p99 ${sample.lagMs!.p99} ms`
        : `settled ${(settled.ms / 1000).toFixed(1)} s after it`) +
      (phase.exhausted ? ` (attempts ran out after ${phase.seconds.toFixed(1)} s: raise BENCH_WEBHOOK_MAX_RATE)` : '') +
      (phase.failures.length ? `  first failure: ${phase.failures[0].status} ${phase.failures[0].body}` : ''),
  );
  if (!settled.settled)
    log(
      `WARNING: the deliveries were not done ${(settled.ms / 1000).toFixed(0)} s after the phase; the next phase shares the machine with them`,
    );
  return sample;
}

async function runLoad(
  ctx: BenchContext,
  origin: string,
  headers: Record<string, string>,
  file: string,
  phase: LoadPhase,
): Promise<LoadResult> {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
  const spec: LoadSpec = {
    origin,
    method: 'POST',
    path: '/api/v1/login_code',
    headers,
    variants: { file, kind: 'body', reuse: false },
    phases: [{ ...phase, variants: lines }],
  };
  const specFile = ctx.file(`load-${Date.now()}-${randomBytes(3).toString('hex')}.json`);
  writeFileSync(specFile, JSON.stringify(spec));
  const [command, args] = pinned(ctx.settings.loadCpu, process.execPath, [LOAD_SCRIPT, specFile]);
  return JSON.parse(await runToEnd(command, args, (phase.seconds + 60) * 1000)) as LoadResult;
}

let clockTicks: number | undefined;

/** A process's CPU time so far (user + system), ms, from /proc/<pid>/stat. */
function cpuMs(pid: number): number {
  clockTicks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

/** The machine's CPU time, busy and total, in ticks (/proc/stat, all CPUs). */
function machineTicks(): { busy: number; total: number } {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const ticks = values.map(Number);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  const idle = ticks[3] + (ticks[4] ?? 0);
  return { busy: total - idle, total };
}

interface DeliveryCheck {
  /** Login events of tenant A in the database (every phase, the sanity and paced logins included). */
  eventsA: number;
  /** Login events of tenant B (written alike; no endpoint takes them). */
  eventsB: number;
  /** eventsA × the endpoints. */
  expected: number;
  /** Of those, how many arrived at their receiver (each event at each endpoint, counted once). */
  received: number;
  lost: number;
  /** Tries that arrived again (at least once delivery: allowed, counted). */
  duplicates: number;
  malformed: number;
  /** Arrivals that are no login event of A in the database (tenant B's would be here): must be none. */
  unexpected: number;
  /** webhook_delivery rows of A's endpoints by status. */
  statuses: Record<string, number>;
  /** Deliveries of the events of A's measured phases, and their lag. */
  underLoad: { deliveries: number; lagMs: Percentiles };
  all: { lagMs: Percentiles };
  /**
   * Where the measured phases' deliveries spent their time, from the rows: event written →
   * delivery made (dispatched, its job queued) → first try started, and the try's POST.
   */
  stagesMs: { dispatched: Percentiles; tried: Percentiles; post: Percentiles };
}

/** After the last phase: every login event of A at every endpoint, nothing else, from the database's side and the receivers'. */
async function deliveryCheck(data: BenchData, receivers: Receivers, tenants: Tenants, endpoints: number): Promise<DeliveryCheck> {
  const events = await data.query<{ id: string; organization_id: string }>(
    'SELECT id, organization_id FROM webhook_event WHERE organization_id = ANY($1::uuid[]) AND type = ANY($2)',
    [[tenants.A.organizationId, tenants.B.organizationId], LOGIN_EVENT_TYPES],
  );
  const idsA = new Set(events.filter((event) => event.organization_id === tenants.A.organizationId).map((event) => event.id));
  const statuses = await data.query<{ status: string; count: string }>(
    `SELECT d.status, count(*) FROM webhook_delivery d JOIN webhook_endpoint w ON w.id = d.endpoint_id WHERE w.tenant_id = $1 GROUP BY d.status`,
    [tenants.A.tenantId],
  );
  const stages = await data.query<{ dispatched: string; tried: string; post: number }>(
    `SELECT EXTRACT(EPOCH FROM (d.created_at - e.created_at)) * 1000 AS dispatched,
            EXTRACT(EPOCH FROM (a.attempted_at - d.created_at)) * 1000 AS tried, a.duration_ms AS post
       FROM webhook_delivery d JOIN webhook_event e ON e.id = d.event_id
       JOIN LATERAL (SELECT attempted_at, duration_ms FROM webhook_attempt WHERE delivery_id = d.id ORDER BY attempted_at LIMIT 1) a ON true
      WHERE e.organization_id = $1 AND e.payload->'user'->>'email' LIKE 'wh-%-a-measured.%'`,
    [tenants.A.organizationId],
  );
  const stage = (pick: (row: (typeof stages)[number]) => string | number) => percentiles(stages.map((row) => Number(pick(row))));
  const arrived = new Set(receivers.arrivals.map((arrival) => `${arrival.receiver}|${arrival.eventId}`));
  let received = 0;
  for (const id of idsA) for (let receiver = 0; receiver < endpoints; receiver++) if (arrived.has(`${receiver}|${id}`)) received += 1;
  const ofA = receivers.arrivals.filter((arrival) => idsA.has(arrival.eventId));
  const measured = ofA.filter((arrival) => /^wh-.*-a-measured\./.test(arrival.email));
  return {
    eventsA: idsA.size,
    eventsB: events.length - idsA.size,
    expected: idsA.size * endpoints,
    received,
    lost: idsA.size * endpoints - received,
    duplicates: receivers.duplicates,
    malformed: receivers.malformed,
    unexpected: receivers.arrivals.length - ofA.length,
    statuses: Object.fromEntries(statuses.map((row) => [row.status, Number(row.count)])),
    underLoad: { deliveries: measured.length, lagMs: percentiles(measured.map((arrival) => arrival.lagMs)) },
    all: { lagMs: percentiles(ofA.map((arrival) => arrival.lagMs)) },
    stagesMs: {
      dispatched: stage((row) => row.dispatched),
      tried: stage((row) => row.tried),
      post: stage((row) => row.post),
    },
  };
}

interface Verdict {
  target: string;
  pass: boolean;
  detail: string;
}

const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const ms = (value: number) => `${fixed(value, value < 100 ? 1 : 0)} ms`;

function report(
  s: WebhookSettings,
  machine: string,
  samples: Sample[],
  paced: { logins: number; lagMs: Percentiles } | null,
  check: DeliveryCheck,
  seconds: number,
): { text: string; verdicts: Verdict[] } {
  const verdicts: Verdict[] = [];
  const rows = [
    line([
      'platform',
      'c',
      'round',
      'tenant (endpoints)',
      'logins/s',
      'p50',
      'p99',
      'non-2xx/errors',
      'auth-api CPU/login',
      'worker CPU',
      'machine busy',
      'deliveries/s during / after the phase',
      'all done after',
    ]),
    line(['---', '---:', '---:', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  const ratios: string[] = [];
  const groups = [...new Set(samples.map((sample) => `${sample.platform}|${sample.connections}`))];
  for (const group of groups) {
    const [platform, connections] = group.split('|');
    const of = samples.filter((sample) => sample.platform === platform && String(sample.connections) === connections);
    const row = (sample: Sample, round: string) =>
      line([
        platform,
        connections,
        round,
        `${sample.tenant} (${sample.tenant === 'A' ? s.endpoints : 0})`,
        fixed(sample.requestsPerSecond) + (sample.exhausted ? '*' : ''),
        ms(sample.latencyMs.p50),
        ms(sample.latencyMs.p99),
        sample.non2xx + sample.errors + sample.timeouts,
        `${fixed(sample.authCpuMsPerLogin, 2)} ms`,
        `${fixed(sample.workerCpuShare * 100)} %`,
        `${fixed(sample.machineBusyShare * 100)} %`,
        sample.deliveryRate === null ? '–' : `${fixed(sample.deliveryRate.during)} / ${fixed(sample.deliveryRate.after)}`,
        `${fixed(sample.settleMs / 1000, 1)} s${sample.settled ? '' : ' (not done)'}`,
      ]);
    for (const sample of of) rows.push(row(sample, String(sample.round)));
    const averaged = (tenant: Tenant): Sample => {
      const list = of.filter((sample) => sample.tenant === tenant);
      return {
        ...list[0],
        requestsPerSecond: mean(list.map((sample) => sample.requestsPerSecond)),
        latencyMs: { ...list[0].latencyMs, p50: mean(list.map((m) => m.latencyMs.p50)), p99: mean(list.map((m) => m.latencyMs.p99)) },
        non2xx: list.reduce((sum, m) => sum + m.non2xx, 0),
        errors: list.reduce((sum, m) => sum + m.errors, 0),
        timeouts: list.reduce((sum, m) => sum + m.timeouts, 0),
        exhausted: list.some((m) => m.exhausted),
        authCpuMsPerLogin: mean(list.map((m) => m.authCpuMsPerLogin)),
        workerCpuShare: mean(list.map((m) => m.workerCpuShare)),
        machineBusyShare: mean(list.map((m) => m.machineBusyShare)),
        settleMs: mean(list.map((m) => m.settleMs)),
        settled: list.every((m) => m.settled),
        deliveryRate:
          tenant === 'A'
            ? { during: mean(list.map((m) => m.deliveryRate?.during ?? 0)), after: mean(list.map((m) => m.deliveryRate?.after ?? 0)) }
            : null,
        expectedDeliveries: list.reduce((sum, m) => sum + m.expectedDeliveries, 0),
      };
    };
    const a = averaged('A');
    const b = averaged('B');
    rows.push(row(a, '**mean**'), row(b, '**mean**'));
    const throughput = a.requestsPerSecond / b.requestsPerSecond;
    ratios.push(
      `${platform} c=${connections}: A/B throughput **${fixed(throughput, 3)}** (${fixed(a.requestsPerSecond)} vs ${fixed(b.requestsPerSecond)} logins/s); ` +
        `p99 ${ms(a.latencyMs.p99)} vs ${ms(b.latencyMs.p99)} (A/B ${fixed(a.latencyMs.p99 / b.latencyMs.p99, 2)}), ` +
        `p50 ${ms(a.latencyMs.p50)} vs ${ms(b.latencyMs.p50)}; auth-api CPU per login ${fixed(a.authCpuMsPerLogin, 2)} vs ${fixed(b.authCpuMsPerLogin, 2)} ms`,
    );
    verdicts.push({
      target:
        s.workerDuringPhases === 'stopped'
          ? `${platform} c=${connections}: the login path alone (worker stopped during the phases) with ${s.endpoints} endpoints ≥ 0.95 × without`
          : `${platform} c=${connections}: login throughput with ${s.endpoints} endpoints ≥ 0.95 × without`,
      pass: throughput >= 0.95,
      detail: fixed(throughput, 3),
    });
  }
  const clean = samples.every((sample) => sample.non2xx + sample.errors + sample.timeouts === 0);
  verdicts.push({
    target: 'every login answered 200 (no non-2xx, errors or timeouts)',
    pass: clean,
    detail: clean ? `${samples.length} phases clean` : 'see the table',
  });
  const allDelivered =
    check.lost === 0 && check.unexpected === 0 && check.malformed === 0 && !check.statuses.pending && !check.statuses.failed;
  verdicts.push({
    target: `every login event of A delivered to each of the ${s.endpoints} endpoints, none lost, none of B`,
    pass: allDelivered,
    detail: `${check.received}/${check.expected} received, ${check.lost} lost, ${check.unexpected} unexpected, ${check.duplicates} duplicates`,
  });
  if (s.endpoints > 0 && s.workerDuringPhases === 'running') {
    const idle = samples.filter((sample) => sample.tenant === 'A' && (sample.deliveryRate?.during ?? 0) < 1);
    verdicts.push({
      target: "the worker delivered during every phase of A (a phase it did not measured no delivery's cost)",
      pass: idle.length === 0,
      detail:
        idle.length === 0
          ? 'yes'
          : `not in ${idle.map((sample) => `${sample.platform} c=${sample.connections} round ${sample.round}`).join(', ')}`,
    });
  }
  verdicts.push({
    target: 'every phase settled (its deliveries done before the next phase)',
    pass: samples.every((sample) => sample.settled),
    detail: `longest ${fixed(Math.max(...samples.map((sample) => sample.settleMs)) / 1000, 1)} s`,
  });

  const lagRow = (what: string, logins: string, deliveries: number, lag: Percentiles) =>
    line([what, logins, deliveries, ms(lag.p50), ms(lag.p99), ms(lag.max)]);
  const deliveries = [
    line(['deliveries of A', 'logins', 'deliveries', 'lag p50', 'lag p99', 'lag max']),
    line(['---', '---:', '---:', '---:', '---:', '---:']),
    ...(paced ? [lagRow(`paced (${s.paced.rate}/s, no backlog)`, String(paced.logins), paced.logins * 2 * s.endpoints, paced.lagMs)] : []),
    lagRow('measured phases (saturating)', '', check.underLoad.deliveries, check.underLoad.lagMs),
    lagRow('all (sanity, paced, warm-up, measured)', '', check.received, check.all.lagMs),
  ];
  const summary =
    `Deliveries: ${check.eventsA} login events of A × ${s.endpoints} endpoints = ${check.expected} expected, ${check.received} received, ` +
    `${check.lost} lost, ${check.duplicates} duplicates, ${check.unexpected} unexpected (tenant B wrote ${check.eventsB} events, none delivered anywhere); ` +
    `webhook_delivery of A: ${JSON.stringify(check.statuses)}. Lag = the event's timestamp (its transaction) → its arrival at the receiver. ` +
    `Measured phases, p50 / p99: event → delivery made ${ms(check.stagesMs.dispatched.p50)} / ${ms(check.stagesMs.dispatched.p99)}, ` +
    `→ first try ${ms(check.stagesMs.tried.p50)} / ${ms(check.stagesMs.tried.p99)}, ` +
    `the try's POST ${ms(check.stagesMs.post.p50)} / ${ms(check.stagesMs.post.p99)}.`;
  const settings =
    `Settings: ${s.warmupSeconds} s warm-up + ${s.durationSeconds} s per phase × ${s.rounds} round(s) (A B, B A, …), c=${s.connections.join('/')}, ` +
    `POST /v1/login_code (a new address each: user.created + user.signed_in), auth-api pinned to CPU ${s.serverCpu ?? 'any'}, load on CPU ${s.loadCpu ?? 'any'}, ` +
    `mail-worker ${workerPlace(s)}${s.workerDuringPhases === 'stopped' ? ' and stopped from each warm-up to the end of its phase' : ''}, WEBHOOK_DISPATCH_INTERVAL_MS=${process.env.WEBHOOK_DISPATCH_INTERVAL_MS ?? '1000 (default)'}, ` +
    `pool ${s.poolSize}, LOG_LEVEL=${s.logLevel}; whole run ${fixed(seconds)} s`;
  const verdictTable = [
    line(['target', 'result']),
    line(['---', '---']),
    ...verdicts.map((v) => line([v.target, `${v.pass ? 'PASS' : '**FAIL**'} (${v.detail})`])),
  ];
  const text = [
    `Machine: ${machine}`,
    settings,
    rows.join('\n'),
    ratios.join('\n'),
    samples.some((sample) => sample.exhausted)
      ? '\\* the attempts ran out before the end of the phase: the rate is over the shorter time measured.'
      : '',
    deliveries.join('\n'),
    summary,
    verdictTable.join('\n'),
  ].filter(Boolean);
  return { text: text.join('\n\n'), verdicts };
}
