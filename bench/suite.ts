/**
 * `npm run bench` (all of them) or `npm run bench -- userinfo|userinfo-cached|verify|organization|mail`: the hot
 * paths users feel, measured in one run against the peer and the floor, with one table at the end.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { BenchContext, RESULTS } from './context';
import { HotScenario, Measurement, runHotScenario } from './hot-paths';
import { describeMachine, machineLine } from './machine';
import { MailResult, runMailScenario } from './mail';
import { tasksetAvailable } from './processes';
import { averageRounds, mailTable, measurementTable, verdicts, verdictTable } from './report';
import { benchSettings, log } from './settings';

export type SuiteScenario = HotScenario | 'mail';
export const ALL_SCENARIOS: SuiteScenario[] = [
  'userinfo',
  'userinfo-cached',
  'verify',
  'organization',
  'login-activity',
  'authenticate-direct',
  'mail',
];

export async function runSuite(scenarios: SuiteScenario[]): Promise<void> {
  const settings = benchSettings();
  if (settings.serverCpu !== null && !tasksetAvailable()) {
    log('WARNING: taskset (util-linux) is not available: servers and load generator run unpinned, so they compete for the same CPUs');
  }
  const machine = await describeMachine(settings.adminDatabaseUrl, settings.redisUrl);
  log(`machine: ${machineLine(machine, loadavg())}`);
  log(
    `pinning: servers on CPU ${settings.serverCpu ?? 'any'}, autocannon on CPU ${settings.loadCpu ?? 'any'}; Postgres and Redis are shared system services (not pinned)`,
  );
  const started = Date.now();
  const ctx = new BenchContext(settings);
  const measurements: Measurement[] = [];
  let mail: MailResult | null = null;
  try {
    await ctx.setUp();
    for (const scenario of scenarios) {
      if (scenario === 'mail') mail = await runMailScenario(ctx);
      else measurements.push(...(await runHotScenario(ctx, scenario)));
    }
  } finally {
    await ctx.tearDown();
  }
  const loadAfter = loadavg();
  const averaged = averageRounds(measurements);
  const list = verdicts(averaged, mail, settings.platforms, settings.connections);
  const sections = [
    `Machine: ${machineLine(machine, loadAfter)}`,
    `Settings: ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s per measurement${settings.rounds > 1 ? ` × ${settings.rounds} rounds (averaged)` : ''}, connections ${settings.connections.join('/')}, ` +
      `pool ${settings.poolSize}, LOG_LEVEL=${settings.logLevel}; whole run ${((Date.now() - started) / 1000).toFixed(0)} s`,
  ];
  if (averaged.length) sections.push(measurementTable(averaged));
  if (averaged.some((m) => m.exhausted))
    sections.push('\\* the pre-generated codes ran out before the end of the phase: the rate is over the shorter time measured.');
  if (mail) sections.push(mailTable(mail));
  if (list.length) sections.push(verdictTable(list, settings.platforms));
  process.stdout.write(`\n${sections.join('\n\n')}\n`);

  mkdirSync(RESULTS, { recursive: true });
  const file = join(RESULTS, `hot-paths-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const { adminDatabaseUrl: _admin, ...publicSettings } = settings;
  writeFileSync(
    file,
    JSON.stringify(
      { scenarios, settings: publicSettings, machine, loadAverageAfter: loadAfter, measurements, mail, verdicts: list },
      null,
      2,
    ),
  );
  log(`raw results: ${file}`);
  const failed = list.filter((verdict) => !verdict.pass);
  log(failed.length ? `${failed.length} of ${list.length} targets FAIL` : `all ${list.length} targets PASS`);
}
