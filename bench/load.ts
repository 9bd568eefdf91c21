/**
 * The load generator, run as its own process (pinned to its own CPU by the orchestrator):
 * `node dist/bench/load.js <spec.json>`. Runs autocannon programmatically, phase after phase,
 * and prints one JSON LoadResult on standard output.
 *
 * Requests may vary: a file of lines (access tokens, or whole form bodies with a fresh
 * authorization code each) is either cycled through (tokens) or consumed once, each phase
 * taking its own slice (codes work once: a phase that runs out stops early rather than send a
 * used code, and says so).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface LoadSpec {
  origin: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  variants?: {
    file: string;
    /** What a line replaces: the request body, or the Authorization header as `Bearer <line>`. */
    kind: 'body' | 'bearer';
    /** Cycle through the lines (tokens), or use each once, a slice per phase (codes). */
    reuse: boolean;
  };
  phases: LoadPhase[];
}

export interface LoadPhase {
  label: string;
  connections: number;
  seconds: number;
  /** With single-use variants: how many lines this phase may take. */
  variants?: number;
}

export interface PhaseResult {
  label: string;
  connections: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Single-use variants ran out, so the phase ended before its time. */
  exhausted: boolean;
  /** The first few non-2xx answers, to say what went wrong. */
  failures: { status: number; body: string }[];
}

export interface LoadResult {
  phases: PhaseResult[];
}

interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
  onResponse?: (status: number, body: string) => void;
}

interface AutocannonResult {
  duration: number;
  requests: { total: number };
  latency: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats?: Record<string, { count: number }>;
}

interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  stop(): void;
}

type Autocannon = (options: Record<string, unknown>) => AutocannonInstance;

const autocannon = createRequire(__filename)('autocannon') as Autocannon;

/** autocannon's sample interval: stop() takes effect at the next sample. */
const SAMPLE_MS = 100;
/** How long requests may go on after stop(), with a margin for a busy load generator. */
const STOP_LAG_SECONDS = 0.3;

async function runPhase(spec: LoadSpec, phase: LoadPhase, lines: string[], offset: number): Promise<{ result: PhaseResult; used: number }> {
  const failures: PhaseResult['failures'] = [];
  let next = 0;
  let exhausted = false;
  const singleUse = spec.variants && !spec.variants.reuse;
  const available = singleUse ? Math.min(phase.variants ?? lines.length - offset, lines.length - offset) : lines.length;
  const running: { instance?: AutocannonInstance } = {};
  let startedAt = 0;
  // Stop while enough lines remain for the requests already being built and for those sent until
  // autocannon stops (at its next sample, STOP_LAG_SECONDS at the rate so far): a used code must
  // never be sent.
  const mustStop = () => {
    const rate = next / Math.max((Date.now() - startedAt) / 1000, 1);
    return next >= available - 2 * phase.connections - 2 - Math.ceil(rate * STOP_LAG_SECONDS);
  };

  const request: AutocannonRequest = { method: spec.method, path: spec.path, headers: { ...spec.headers } };
  if (spec.body !== undefined) request.body = spec.body;
  if (spec.variants) {
    const kind = spec.variants.kind;
    request.setupRequest = (built) => {
      let line: string;
      if (singleUse) {
        if (next === 0) startedAt = Date.now();
        if (!exhausted && mustStop()) {
          exhausted = true;
          setImmediate(() => running.instance?.stop());
        }
        line = lines[offset + Math.min(next, available - 1)];
      } else {
        line = lines[(offset + next) % lines.length];
      }
      next += 1;
      if (kind === 'body') built.body = line;
      else built.headers = { ...built.headers, authorization: `Bearer ${line}` };
      return built;
    };
  }
  request.onResponse = (status, body) => {
    if ((status < 200 || status > 299) && failures.length < 3) failures.push({ status, body: body.slice(0, 300) });
  };

  const instance = autocannon({
    url: spec.origin,
    connections: phase.connections,
    duration: phase.seconds,
    requests: [request],
    timeout: 10,
    sampleInt: SAMPLE_MS,
  });
  running.instance = instance;
  const raw = await instance;
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(raw.statusCodeStats ?? {})) statusCodes[code] = stats.count;
  return {
    used: singleUse ? Math.min(next, available) : 0,
    result: {
      label: phase.label,
      connections: phase.connections,
      seconds: raw.duration,
      requests: raw.requests.total,
      requestsPerSecond: raw.duration > 0 ? raw.requests.total / raw.duration : 0,
      latencyMs: { mean: raw.latency.mean, p50: raw.latency.p50, p90: raw.latency.p90, p99: raw.latency.p99, max: raw.latency.max },
      non2xx: raw.non2xx,
      errors: raw.errors,
      timeouts: raw.timeouts,
      statusCodes,
      exhausted,
      failures,
    },
  };
}

async function main(): Promise<void> {
  const spec = JSON.parse(readFileSync(process.argv[2], 'utf8')) as LoadSpec;
  const lines = spec.variants ? readFileSync(spec.variants.file, 'utf8').split('\n').filter(Boolean) : [];
  if (spec.variants && lines.length === 0) throw new Error(`${spec.variants.file} has no lines`);
  const phases: PhaseResult[] = [];
  let offset = 0;
  for (const phase of spec.phases) {
    const { result, used } = await runPhase(spec, phase, lines, offset);
    // Single-use lines a phase was given but did not use are skipped: some may be in flight.
    offset += spec.variants && !spec.variants.reuse ? (phase.variants ?? used) : 0;
    phases.push(result);
  }
  process.stdout.write(JSON.stringify({ phases } satisfies LoadResult));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
