/**
 * `npm run bench -- instances`: the login (POST /v1/authenticate_direct, a fresh address per
 * request) through docker/nginx.conf in front of one, two and three auth-api instances, side by
 * side in one run, on each platform. Every instance, nginx and the load generator share this
 * machine's cores, so the ratios say what more instances give where the CPU is the limit, not what
 * they give on more machines. See docs/benchmarks.md#instances.
 */
import { loadavg } from 'node:os';
import { startNginx } from '../test/ops/support/nginx';
import { BenchContext, RunningServer } from './context';
import { load, loadPhases, loginTarget, Platform, sanityCheck } from './hot-paths';
import { PhaseResult } from './load';
import { describeMachine, machineLine } from './machine';
import { freePort } from './processes';
import { benchSettings, log } from './settings';

const COUNTS = [1, 2, 3];

interface InstancesMeasurement extends PhaseResult {
  instances: number;
  platform: Platform;
}

export async function runInstancesBench(): Promise<void> {
  const settings = benchSettings();
  const machine = await describeMachine(settings.adminDatabaseUrl, settings.redisUrl);
  const ctx = new BenchContext(settings);
  const measurements: InstancesMeasurement[] = [];
  try {
    await ctx.setUp();
    for (let round = 1; round <= settings.rounds; round++) {
      // Alternate the order between rounds, so that drift on a busy machine favours no count.
      for (const instances of round % 2 === 1 ? COUNTS : [...COUNTS].reverse()) {
        for (const platform of settings.platforms) {
          for (const phase of await measure(ctx, platform, instances)) {
            measurements.push({ ...phase, instances, platform });
            log(
              `instances=${instances} ${platform} c=${phase.connections}: ${phase.requestsPerSecond.toFixed(0)} req/s p99 ${phase.latencyMs.p99} ms non-2xx ${phase.non2xx}`,
            );
          }
        }
      }
    }
  } finally {
    await ctx.tearDown();
  }
  process.stdout.write(`\nMachine: ${machineLine(machine, loadavg())}\n\n${table(measurements, settings.rounds)}\n`);
}

async function measure(ctx: BenchContext, platform: Platform, instances: number): Promise<PhaseResult[]> {
  const target = loginTarget(ctx, 'sesame', platform);
  const gateway = await startGateway(ctx, platform, instances);
  try {
    await sanityCheck(gateway.url, target);
    const phases = loadPhases(ctx, target);
    const result = await load(ctx, gateway.url, target, phases);
    return result.phases.filter((phase) => phase.label !== 'warmup');
  } finally {
    await gateway.stop();
  }
}

/** `count` auth-api instances (not pinned: they share the cores) behind nginx; stop() stops them all. */
async function startGateway(ctx: BenchContext, platform: Platform, count: number): Promise<{ url: string; stop(): Promise<void> }> {
  const prefix = ctx.nextRedisPrefix();
  const servers: RunningServer[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await ctx.startSesame('auth-api', platform, { pin: false, redisPrefix: prefix }));
    const nginx = await startNginx(
      {
        auth: servers.map((server) => new URL(server.url).host),
        management: `127.0.0.1:${await freePort()}`,
        console: `127.0.0.1:${await freePort()}`,
      },
      await freePort(),
    );
    return {
      url: nginx.url,
      stop: async () => {
        await nginx.stop();
        await Promise.all(servers.map((server) => server.stop()));
      },
    };
  } catch (error) {
    await Promise.all(servers.map((server) => server.stop()));
    throw error;
  }
}

/** One row per platform, count and connections, averaged over the rounds, with the ratio to one instance. */
function table(measurements: InstancesMeasurement[], rounds: number): string {
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const rows: string[] = ['| platform | c | instances | req/s | of 1 instance | p99 |', '| --- | ---: | ---: | ---: | ---: | ---: |'];
  const keys = [...new Set(measurements.map((m) => `${m.platform}|${m.connections}`))];
  for (const key of keys) {
    const [platform, connections] = key.split('|');
    const of = (instances: number) =>
      measurements.filter((m) => m.platform === platform && String(m.connections) === connections && m.instances === instances);
    const baseline = mean(of(1).map((m) => m.requestsPerSecond));
    for (const instances of COUNTS) {
      const list = of(instances);
      if (!list.length) continue;
      const rate = mean(list.map((m) => m.requestsPerSecond));
      rows.push(
        `| ${platform} | ${connections} | ${instances} | ${rate.toFixed(0)} | ${(rate / baseline).toFixed(2)} | ${mean(list.map((m) => m.latencyMs.p99)).toFixed(0)} ms |`,
      );
    }
  }
  return `${rounds} round(s), averaged:\n\n${rows.join('\n')}`;
}
