/**
 * `npm run bench -- profile`: where Sesame's time goes on the two hottest paths. Runs auth-api
 * (Express) with the V8 CPU profiler for userinfo and for verify, loaded at the highest
 * connection count like the measurement runs (BENCH_PROFILE_DURATION seconds, default 10; the
 * profiler starts after the warm-up), and prints the functions with the most self time and the
 * self time per package. The profiles are kept in bench/results/profiles/ (open them in Chrome
 * DevTools or speedscope). The profiler slows the server: read shares, not absolute numbers.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BenchContext, DIST, RESULTS, ROOT } from './context';
import { HotScenario, runHotScenario } from './hot-paths';
import { benchSettings, log } from './settings';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  scenario: string;
  file: string;
  totalMs: number;
  busyMs: number;
  functions: { name: string; where: string; selfMs: number; share: number }[];
  packages: { name: string; selfMs: number; share: number }[];
  /** Self time charged to the nearest package on the stack: Node core and native frames (socket writes, crypto) count for the package that called them. */
  onBehalfOf: { name: string; selfMs: number; share: number }[];
}

/** BENCH_PROFILE_SCENARIOS [userinfo,verify] and BENCH_PROFILE_PLATFORM [express] choose what to profile. */
const SCENARIOS = (process.env.BENCH_PROFILE_SCENARIOS ?? 'userinfo,verify').split(',') as HotScenario[];
const PLATFORM = (process.env.BENCH_PROFILE_PLATFORM ?? 'express') as 'express' | 'fastify';

export async function runProfile(): Promise<void> {
  const base = benchSettings();
  const connections = Math.max(...base.connections);
  const settings = {
    ...base,
    platforms: [PLATFORM],
    connections: [connections],
    durationSeconds: Number(process.env.BENCH_PROFILE_DURATION ?? 10),
  };
  const directory = join(RESULTS, 'profiles', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(directory, { recursive: true });
  const ctx = new BenchContext(settings);
  const summaries: ProfileSummary[] = [];
  try {
    await ctx.setUp();
    for (const scenario of SCENARIOS) {
      const file = join(directory, `${scenario}.cpuprofile`);
      ctx.sesameNodeArgs = ['-r', join(DIST, 'bench', 'profiler-preload.js')];
      ctx.sesameEnvExtra = { BENCH_PROFILE_FILE: file };
      await runHotScenario(ctx, scenario, {
        only: (target) => target.server === 'sesame',
        // Start profiling once the warm-up is over (the load generator takes a moment to start).
        onLoad: (server) => setTimeout(() => server.process.process.kill('SIGWINCH'), settings.warmupSeconds * 1000 + 300).unref(),
        afterLoad: async (server) => {
          server.process.process.kill('SIGWINCH');
          for (let waited = 0; waited < 30_000 && !existsSync(file); waited += 100)
            await new Promise((resolve) => setTimeout(resolve, 100));
        },
      });
      if (!existsSync(file)) throw new Error(`no profile was written to ${file}`);
      summaries.push(summarize(scenario, file));
    }
  } finally {
    await ctx.tearDown();
  }
  for (const summary of summaries) process.stdout.write(`\n${renderSummary(summary)}\n`);
  log(`profiles: ${directory}`);
}

/** Self time per function and per package (node_modules package, Sesame's own code, Node internals, GC). */
export function summarize(scenario: string, file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const functions = new Map<string, { name: string; where: string; us: number }>();
  const packages = new Map<string, number>();
  const onBehalfOf = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    totalUs += us;
    if (frame.functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    const where = frame.url ? `${shortUrl(frame.url)}:${frame.lineNumber + 1}` : '';
    const name = frame.functionName || '(anonymous)';
    const key = `${name} ${where}`;
    const entry = functions.get(key) ?? { name, where, us: 0 };
    entry.us += us;
    functions.set(key, entry);
    const pkg = packageOf(frame.url, frame.functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
    let caller = pkg;
    for (let at: number | undefined = id; at !== undefined && !isPackage(caller); at = parents.get(at)) {
      const callerFrame = byId.get(at)!.callFrame;
      if (callerFrame.url && !callerFrame.url.startsWith('node:')) caller = packageOf(callerFrame.url, callerFrame.functionName);
    }
    onBehalfOf.set(caller, (onBehalfOf.get(caller) ?? 0) + us);
  }
  const busyUs = totalUs - idleUs;
  return {
    scenario,
    file,
    totalMs: totalUs / 1000,
    busyMs: busyUs / 1000,
    functions: [...functions.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ name: f.name, where: f.where, selfMs: f.us / 1000, share: f.us / busyUs })),
    packages: ranked(packages, busyUs),
    onBehalfOf: ranked(onBehalfOf, busyUs),
  };
}

function ranked(totals: Map<string, number>, busyUs: number): { name: string; selfMs: number; share: number }[] {
  return [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ name, selfMs: us / 1000, share: us / busyUs }));
}

function isPackage(name: string): boolean {
  return !name.startsWith('(') && !name.startsWith('node:');
}

function shortUrl(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) return path.slice(modules + '/node_modules/'.length);
  return path.startsWith('/') ? relative(ROOT, path) : path;
}

function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node: (core modules; with no package above: HTTP parsing, timers)';
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = path.slice(modules + '/node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const inRepo = relative(ROOT, path);
  if (inRepo === 'dist/bench/profiler-preload.js') return '(profiler overhead)';
  const match = /^dist\/(apps|libs)\/([^/]+)/.exec(inRepo);
  return match ? `sesame ${match[1]}/${match[2]}` : inRepo;
}

export function renderSummary(summary: ProfileSummary): string {
  const pct = (share: number) => `${(share * 100).toFixed(1)} %`;
  const rows = [
    `### ${summary.scenario} (${PLATFORM}): ${summary.busyMs.toFixed(0)} ms busy of ${summary.totalMs.toFixed(0)} ms profiled`,
    '',
    '| self time | share of busy | function | where |',
    '| ---: | ---: | --- | --- |',
    ...summary.functions.map((f) => `| ${f.selfMs.toFixed(0)} ms | ${pct(f.share)} | ${f.name} | ${f.where} |`),
    '',
    '| package | self time | share of busy |',
    '| --- | ---: | ---: |',
    ...summary.packages.slice(0, 20).map((p) => `| ${p.name} | ${p.selfMs.toFixed(0)} ms | ${pct(p.share)} |`),
    '',
    '| on behalf of (nearest package on the stack) | self time | share of busy |',
    '| --- | ---: | ---: |',
    ...summary.onBehalfOf.slice(0, 20).map((p) => `| ${p.name} | ${p.selfMs.toFixed(0)} ms | ${pct(p.share)} |`),
  ];
  return rows.join('\n');
}
