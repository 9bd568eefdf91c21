/**
 * `npm run bench -- scale`: the hot paths on a nearly empty database and on a copy of it filled to
 * production sizes (1 M live access tokens, 1 M login attempts, 100 k users in one organization,
 * 10 k organizations, 1 M rows past their retention), each pair measured back to back; then the
 * maintenance job removing the 1 M expired rows while userinfo runs. Also records the plans of
 * the hot queries and the database size per million logins. See docs/benchmarks.md#scale.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { BenchContext, RESULTS, RunningServer } from './context';
import { load, loadPhases, loginActivityTarget, loginTarget, Platform, sanityCheck, Target, targetsOf } from './hot-paths';
import { PhaseResult } from './load';
import { describeMachine, machineLine } from './machine';
import { SCALE, ScaleData, TableSize } from './scale-data';
import { benchSettings, log } from './settings';

const SCENARIOS = [
  'users by e-mail',
  'login activity',
  'authenticate_direct',
  'verify',
  'userinfo (1k tokens)',
  'userinfo (100k tokens)',
  'maintenance',
] as const;
type ScaleScenario = Exclude<(typeof SCENARIOS)[number], 'maintenance'>;
type DataSize = 'near-empty' | '1M';

interface ScaleMeasurement extends PhaseResult {
  scenario: ScaleScenario;
  server: 'sesame' | 'peer' | 'floor';
  platform: Platform | null;
  data: DataSize;
}

interface MaintenanceMeasurement {
  platform: Platform;
  rowsRemoved: number;
  durationSeconds: number;
  /** Whether the job was still running when the userinfo load ended (so that p99 is wholly "during"). */
  coveredLoad: boolean;
  during: PhaseResult[];
}

/** BENCH_SCALE_SCENARIOS [all]: the scenarios to run (comma-separated names as in the table, and `maintenance`), e.g. one while iterating. */
function chosenScenarios(): Set<(typeof SCENARIOS)[number]> {
  const names = (process.env.BENCH_SCALE_SCENARIOS ?? SCENARIOS.join(','))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) throw new Error(`BENCH_SCALE_SCENARIOS must list some of: ${SCENARIOS.join(', ')}`);
  return new Set(names as (typeof SCENARIOS)[number][]);
}

export async function runScaleBench(): Promise<void> {
  const settings = benchSettings();
  const chosen = chosenScenarios();
  // Two rounds unless told otherwise: near-empty then 1 M, then 1 M then near-empty, so that a machine getting slower or faster during the run cancels out.
  const rounds = process.env.BENCH_ROUNDS ? settings.rounds : 2;
  const machine = await describeMachine(settings.adminDatabaseUrl, settings.redisUrl);
  log(`machine: ${machineLine(machine, loadavg())}`);
  const started = Date.now();
  const nearEmpty = new BenchContext(settings);
  const measurements: ScaleMeasurement[] = [];
  const maintenance: MaintenanceMeasurement[] = [];
  let report: { plans: { name: string; plan: string }[]; sizes: TableSize[]; databaseBytes: number; fillSeconds: number } | undefined;
  try {
    await nearEmpty.setUp();
    await nearEmpty.data.users(1000);
    await withScaleData(nearEmpty, (data) => data.recentAttempts(100));
    const full = await nearEmpty.copy();
    try {
      await full.data.users(SCALE.users);
      await withScaleData(full, async (data) => {
        const fillStarted = Date.now();
        await data.fill();
        const fillSeconds = (Date.now() - fillStarted) / 1000;
        report = { plans: await data.plans(), sizes: await data.sizes(), databaseBytes: await data.databaseBytes(), fillSeconds };
      });
      // Logged at once, so that a later failure does not lose them.
      log(
        `${sizeTable(report!.sizes, report!.databaseBytes, report!.fillSeconds)}\n\n${report!.plans.map((p) => `${p.name}:\n${p.plan}`).join('\n\n')}`,
      );
      measurements.push(...(await measureScenarios({ 'near-empty': nearEmpty, '1M': full }, chosen, rounds)));
      for (const [i, platform] of (chosen.has('maintenance') ? settings.platforms : []).entries()) {
        if (i > 0) await withScaleData(full, (data) => data.fillExpired());
        maintenance.push(await measureMaintenance(full, platform));
      }
    } finally {
      await full.tearDown();
    }
  } finally {
    await nearEmpty.tearDown();
  }
  const loadAfter = loadavg();
  const text = [
    `Machine: ${machineLine(machine, loadAfter)}`,
    `Settings: ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s per measurement, connections ${settings.connections.join('/')}, ${rounds} round(s); whole run ${((Date.now() - started) / 1000).toFixed(0)} s`,
    scaleTable(measurements),
    maintenanceTable(maintenance, measurements),
    report ? sizeTable(report.sizes, report.databaseBytes, report.fillSeconds) : '',
    report ? report.plans.map((p) => `${p.name}:\n${p.plan}`).join('\n\n') : '',
  ];
  process.stdout.write(`\n${text.filter(Boolean).join('\n\n')}\n`);
  mkdirSync(RESULTS, { recursive: true });
  const file = join(RESULTS, `scale-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const { adminDatabaseUrl: _admin, ...publicSettings } = settings;
  writeFileSync(
    file,
    JSON.stringify(
      { settings: publicSettings, rounds, machine, loadAverageAfter: loadAfter, measurements, maintenance, ...report },
      null,
      2,
    ),
  );
  log(`raw results: ${file}`);
}

async function withScaleData(ctx: BenchContext, work: (data: ScaleData) => Promise<void>): Promise<void> {
  const data = new ScaleData(ctx.databaseUrl, ctx.seed);
  try {
    await work(data);
  } finally {
    await data.close();
  }
}

/** A scenario's target on one platform against one database. */
type TargetOf = (ctx: BenchContext, platform: Platform) => Promise<Target>;

const SCENARIO_TARGETS: [ScaleScenario, TargetOf][] = [
  [
    'users by e-mail',
    async (ctx, platform) => managementTarget(ctx, platform, `user?email=${encodeURIComponent('bench-user-500@bench.example')}`),
  ],
  ['login activity', async (ctx, platform) => loginActivityTarget(ctx, 'sesame', platform)],
  ['authenticate_direct', async (ctx, platform) => loginTarget(ctx, 'sesame', platform)],
  ['verify', (ctx, platform) => sesameTarget(ctx, 'verify', platform)],
  ['userinfo (1k tokens)', (ctx, platform) => sesameTarget(ctx, 'userinfo', platform, 1000)],
  ['userinfo (100k tokens)', (ctx, platform) => sesameTarget(ctx, 'userinfo', platform, 100_000)],
];

/** The scenarios with a floor (bench/floor-server.ts), measured against both databases beside Sesame. */
const FLOOR_TARGETS: Partial<Record<ScaleScenario, (ctx: BenchContext) => Target>> = {
  'login activity': (ctx) => loginActivityTarget(ctx, 'floor', null),
  authenticate_direct: (ctx) => loginTarget(ctx, 'floor', null),
};

/**
 * Every chosen scenario on every platform against both databases, the two measurements of a pair
 * one after the other (their order swapped every round), so that both see the same machine.
 * The peer (no database) is measured in each round of uncached userinfo, for the 1.5× target.
 */
async function measureScenarios(
  contexts: Record<DataSize, BenchContext>,
  chosen: Set<string>,
  rounds: number,
): Promise<ScaleMeasurement[]> {
  const results: ScaleMeasurement[] = [];
  const record = (scenario: ScaleScenario, data: DataSize, target: Target, phases: PhaseResult[]) => {
    for (const phase of phases) {
      const server = target.server === 'peer' || target.server === 'floor' ? target.server : 'sesame';
      results.push({ ...phase, scenario, server, platform: target.platform, data });
      log(
        `${data} ${scenario} ${target.server}/${target.platform ?? '-'} c=${phase.connections}: ${phase.requestsPerSecond.toFixed(0)} req/s p99 ${phase.latencyMs.p99} ms non-2xx ${phase.non2xx}`,
      );
    }
  };
  for (const [scenario, targetOf] of SCENARIO_TARGETS.filter(([scenario]) => chosen.has(scenario))) {
    for (let round = 0; round < rounds; round++) {
      const sizes: DataSize[] = round % 2 === 0 ? ['near-empty', '1M'] : ['1M', 'near-empty'];
      for (const platform of contexts['1M'].settings.platforms) {
        for (const data of sizes) {
          const target = await targetOf(contexts[data], platform);
          record(scenario, data, target, await measure(contexts[data], target));
        }
      }
      const floorOf = FLOOR_TARGETS[scenario];
      if (floorOf) {
        for (const data of sizes) {
          const floor = floorOf(contexts[data]);
          record(scenario, data, floor, await measure(contexts[data], floor));
        }
      }
      if (scenario === 'userinfo (100k tokens)') {
        const peer = (await targetsFor(contexts['1M'], 'userinfo', 100_000)).find((target) => target.server === 'peer')!;
        record(scenario, '1M', peer, await measure(contexts['1M'], peer));
      }
    }
  }
  return results;
}

/** The hot-path suite's targets, made once per database and token count (userinfo's tokens are inserted then; verify's codes on each start). */
const hotTargets = new Map<string, Promise<Target[]>>();

function targetsFor(ctx: BenchContext, scenario: 'verify' | 'userinfo', tokens = 1000): Promise<Target[]> {
  const key = `${ctx.id} ${scenario} ${tokens}`;
  if (!hotTargets.has(key)) {
    ctx.settings.userinfoTokens = tokens;
    hotTargets.set(key, targetsOf(ctx, scenario));
  }
  return hotTargets.get(key)!;
}

async function sesameTarget(ctx: BenchContext, scenario: 'verify' | 'userinfo', platform: Platform, tokens?: number): Promise<Target> {
  return (await targetsFor(ctx, scenario, tokens)).find((target) => target.server === 'sesame' && target.platform === platform)!;
}

/** Warm-up, then one phase per connection count, on a freshly started server; phases of single-use lines get their share. */
async function measure(ctx: BenchContext, target: Target, onLoad?: (server: RunningServer) => Promise<void>): Promise<PhaseResult[]> {
  const server = await target.start();
  try {
    await sanityCheck(server.url, target);
    const phases = loadPhases(ctx, target);
    // After a checkpoint a page's first change writes the whole page to the WAL; the more pages
    // the writes spread over, the more of that. Starting every measurement there puts both
    // databases at the same (the costliest) point of the cycle, instead of wherever the 5-minute timer is.
    await ctx.data.checkpoint();
    await onLoad?.(server);
    const result = await load(ctx, server.url, target, phases);
    return result.phases.filter((phase) => phase.label !== 'warmup');
  } finally {
    await server.stop();
  }
}

/** A management API list through the API-key guard. bench-user-500 exists in both databases (the first thousand users are made before the copy). */
function managementTarget(ctx: BenchContext, platform: Platform, list: string): Target {
  const headers = { authorization: `Bearer ${ctx.seed.apiKey}` };
  const path = `/api/v2/organization/${ctx.seed.organizationId}/${list}`;
  return {
    server: 'sesame',
    platform,
    path,
    method: 'GET',
    headers,
    sanity: { headers },
    start: () => ctx.startSesame('management-api', platform),
  };
}

/**
 * Starts mail-worker with the job every second on the 1 M expired rows, waits until it has removed
 * a first batch, then loads userinfo (100 k tokens) while it runs, and waits for the run to end.
 */
async function measureMaintenance(ctx: BenchContext, platform: Platform): Promise<MaintenanceMeasurement> {
  const target = await sesameTarget(ctx, 'userinfo', platform, 100_000);
  // Not pinned: in production the worker runs on its own machine or core; Postgres does the work either way.
  const worker = await ctx.startSesame('mail-worker', 'express', {
    pin: false,
    // No sweeps: the attempts authenticate_direct left pending would be queued for a mail server that is not there
    // (so its health check, which asks the SMTP server, fails: wait for its metrics instead).
    env: { MAINTENANCE_INTERVAL_SECONDS: '1', MAIL_SWEEP_INTERVAL_SECONDS: '3600', SMTP_URL: 'smtp://127.0.0.1:9' },
    readyPath: '/api/metrics',
  });
  try {
    const during = await measure(ctx, target, async () => {
      await until(async () => (await metric(worker.url, 'sesame_maintenance_rows_deleted_total')) > 0, 60_000);
    });
    const completed = () => metric(worker.url, 'sesame_maintenance_runs_total', 'outcome="completed"');
    const completedDuringLoad = (await completed()) > 0;
    await until(async () => (await completed()) > 0, 1_800_000);
    const durationSeconds = await metric(worker.url, 'sesame_maintenance_run_duration_seconds_sum');
    const rowsRemoved = await metric(worker.url, 'sesame_maintenance_rows_deleted_total');
    log(
      `maintenance (${platform}): ${rowsRemoved} rows in ${durationSeconds.toFixed(1)} s; still running at the end of the load: ${!completedDuringLoad}`,
    );
    return { platform, rowsRemoved, durationSeconds, coveredLoad: !completedDuringLoad, during };
  } finally {
    await worker.stop();
  }
}

/** The sum of the series of a metric (those with `label`, e.g. `outcome="completed"`, if given), from the worker's /api/metrics. */
async function metric(url: string, name: string, label = ''): Promise<number> {
  const text = await (await fetch(`${url}/api/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => (line.startsWith(`${name} `) || line.startsWith(`${name}{`)) && line.includes(label))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the maintenance job');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** One row per scenario, server, platform, data size and connection count: the mean over the rounds. */
function averaged(measurements: ScaleMeasurement[]): ScaleMeasurement[] {
  const groups = new Map<string, ScaleMeasurement[]>();
  for (const m of measurements) {
    const key = [m.scenario, m.server, m.platform, m.data, m.connections].join('|');
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return [...groups.values()].map((group) => ({
    ...group[0],
    requestsPerSecond: mean(group.map((m) => m.requestsPerSecond)),
    latencyMs: { ...group[0].latencyMs, p99: Math.round(mean(group.map((m) => m.latencyMs.p99))) },
    non2xx: group.reduce((sum, m) => sum + m.non2xx + m.errors, 0),
    errors: 0,
  }));
}

function scaleTable(measurements: ScaleMeasurement[]): string {
  const rows = [
    '| scenario | server | c | near-empty req/s | 1M req/s | ratio | near-empty p99 ms | 1M p99 ms | non-2xx | of the floor (near-empty / 1M) |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const means = averaged(measurements);
  for (const m of means.filter((x) => x.data === '1M')) {
    const empty = means.find(
      (e) =>
        e.data === 'near-empty' &&
        e.scenario === m.scenario &&
        e.server === m.server &&
        e.platform === m.platform &&
        e.connections === m.connections,
    );
    const ratio = empty ? (m.requestsPerSecond / empty.requestsPerSecond).toFixed(2) : '–';
    const name = m.server === 'peer' ? 'peer (oidc-provider)' : m.server === 'floor' ? 'floor (node:http)' : `sesame (${m.platform})`;
    const floorOf = (data: DataSize) =>
      means.find((f) => f.server === 'floor' && f.data === data && f.scenario === m.scenario && f.connections === m.connections);
    const ofFloor = (data: DataSize, sesame: ScaleMeasurement | undefined) => {
      const floor = floorOf(data);
      return floor && sesame ? (sesame.requestsPerSecond / floor.requestsPerSecond).toFixed(2) : '–';
    };
    const floorColumn = m.server === 'sesame' && floorOf('1M') ? `${ofFloor('near-empty', empty)} / ${ofFloor('1M', m)}` : '';
    rows.push(
      `| ${m.scenario} | ${name} | ${m.connections} | ${empty ? empty.requestsPerSecond.toFixed(0) : '–'} | ${m.requestsPerSecond.toFixed(0)} | ${ratio} | ${empty?.latencyMs.p99 ?? '–'} | ${m.latencyMs.p99} | ${(empty?.non2xx ?? 0) + m.non2xx} | ${floorColumn} |`,
    );
  }
  return rows.join('\n');
}

function maintenanceTable(list: MaintenanceMeasurement[], measurements: ScaleMeasurement[]): string {
  const rows = [
    '| platform | rows removed | job duration s | c | userinfo p99 at 1M ms | p99 during the job ms | × | req/s during | covered |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  const means = averaged(measurements);
  for (const m of list) {
    for (const phase of m.during) {
      const before = means.find(
        (x) =>
          x.data === '1M' &&
          x.scenario === 'userinfo (100k tokens)' &&
          x.server === 'sesame' &&
          x.platform === m.platform &&
          x.connections === phase.connections,
      );
      const factor = before ? (phase.latencyMs.p99 / Math.max(1, before.latencyMs.p99)).toFixed(2) : '–';
      rows.push(
        `| ${m.platform} | ${m.rowsRemoved} | ${m.durationSeconds.toFixed(1)} | ${phase.connections} | ${before?.latencyMs.p99 ?? '–'} | ${phase.latencyMs.p99} | ${factor} | ${phase.requestsPerSecond.toFixed(0)} | ${m.coveredLoad ? 'yes' : 'no (the job ended first)'} |`,
      );
    }
  }
  return rows.join('\n');
}

function sizeTable(sizes: TableSize[], databaseBytes: number, fillSeconds: number): string {
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  const rows = ['| table | rows | total MB | of which indexes MB | bytes per row |', '| --- | ---: | ---: | ---: | ---: |'];
  for (const size of sizes)
    rows.push(
      `| ${size.table} | ${size.rows} | ${mb(size.bytes)} | ${mb(size.indexBytes)} | ${size.rows ? Math.round(size.bytes / size.rows) : '–'} |`,
    );
  const perRow = (table: string) => {
    const size = sizes.find((s) => s.table === table);
    return size && size.rows ? size.bytes / size.rows : 0;
  };
  // A login writes one attempt, one code and one token (and touches a throttle row per address).
  const perMillion = (perRow('login_attempt') + perRow('authorization_code') + perRow('access_token')) * 1_000_000;
  rows.push(
    '',
    `Database ${mb(databaseBytes)} MB after the fill (${fillSeconds.toFixed(0)} s, ${JSON.stringify(SCALE)}); one million logins (attempt + code + token, with their indexes) ≈ ${mb(perMillion)} MB.`,
  );
  return rows.join('\n');
}
