/**
 * One benchmark run's shared state: the throwaway database and Redis prefix, the seeded tenant,
 * the environment the Sesame apps start with, and starting any server under test pinned to the
 * server CPU and waiting until it answers.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BenchData, clearRedis, copyDatabase, createDatabase, dropDatabase, logSeed, Seed, seedThroughApi } from './fixture';
import { freePort, Spawned, startPinned, waitUntilUp } from './processes';
import { BenchSettings, log } from './settings';

export const ROOT = join(__dirname, '..', '..');
export const DIST = join(ROOT, 'dist');
export const RESULTS = join(ROOT, 'bench', 'results');

export type SesameApp = 'auth-api' | 'management-api' | 'mail-worker';

const PORT_VARIABLE: Record<SesameApp, string> = {
  'auth-api': 'AUTH_PORT',
  'management-api': 'MANAGEMENT_PORT',
  'mail-worker': 'MAIL_WORKER_PORT',
};

/** Limits so high that nothing is refused: the limiters still do all their work on every request. */
const HUGE = 1_000_000_000;
export const RAISED_LIMITS = {
  PLAN_LIMITS: JSON.stringify({ pro: { minute: HUGE, hour: HUGE, day: HUGE } }),
  ENDPOINT_LIMITS: JSON.stringify({ pro: HUGE }),
  GLOBAL_RATE_LIMIT: '10000000',
};

export interface RunningServer {
  url: string;
  process: Spawned;
  stop(): Promise<void>;
}

export class BenchContext {
  readonly id: string;
  readonly database: string;
  readonly redisPrefix: string;
  readonly secretsKey: string;
  readonly platformKey: string;
  readonly tmp = mkdtempSync(join(tmpdir(), 'sesame-bench-'));
  databaseUrl = '';
  seed!: Seed;
  data!: BenchData;
  /** Node options every Sesame app is started with (the profile scenario sets --cpu-prof here). */
  sesameNodeArgs: string[] = [];
  /** Environment every Sesame app is started with on top of the usual. */
  sesameEnvExtra: NodeJS.ProcessEnv = {};
  private prefixes = 0;

  /** `copyOf`: a context for a copy of that one's database (same tenant, keys and secrets), made by `copy()`. */
  constructor(
    readonly settings: BenchSettings,
    copyOf?: BenchContext,
  ) {
    this.id = copyOf ? `${copyOf.id}_copy` : `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    this.database = `sesame_bench_${this.id}`;
    this.redisPrefix = `sesame-bench-${this.id}`;
    this.secretsKey = copyOf?.secretsKey ?? randomBytes(32).toString('hex');
    this.platformKey = copyOf?.platformKey ?? `bench-platform-key-${randomBytes(16).toString('hex')}`;
  }

  async setUp(): Promise<void> {
    log(`throwaway database ${this.database}, Redis prefix ${this.redisPrefix}`);
    this.databaseUrl = await createDatabase(this.settings.adminDatabaseUrl, this.database);
    const management = await this.startSesame('management-api', 'express', { pin: false });
    try {
      this.seed = await seedThroughApi(management.url, this.platformKey);
    } finally {
      await management.stop();
    }
    logSeed(this.seed);
    this.data = new BenchData(this.databaseUrl, this.seed);
  }

  /**
   * A second database made from this one as it is now, with its own context, so that two data
   * sizes can be measured side by side in one run (the scale benchmark). Its tearDown drops it.
   */
  async copy(): Promise<BenchContext> {
    const copy = new BenchContext(this.settings, this);
    // A database is copied only while nobody is connected to it.
    await this.data.disconnect();
    copy.databaseUrl = await copyDatabase(this.settings.adminDatabaseUrl, this.database, copy.database);
    copy.seed = this.seed;
    copy.data = this.data.copyTo(copy.databaseUrl);
    copy.sesameNodeArgs = this.sesameNodeArgs;
    copy.sesameEnvExtra = this.sesameEnvExtra;
    return copy;
  }

  async tearDown(): Promise<void> {
    await this.data?.close().catch(() => undefined);
    await dropDatabase(this.settings.adminDatabaseUrl, this.database).catch((error: Error) =>
      log(`could not drop ${this.database}: ${error.message}`),
    );
    await clearRedis(this.settings.redisUrl, this.redisPrefix).catch((error: Error) => log(`could not clear Redis keys: ${error.message}`));
    rmSync(this.tmp, { recursive: true, force: true });
  }

  /** A fresh Redis prefix under the run's, so that no server starts with another's rate-limit logs. */
  nextRedisPrefix(): string {
    return `${this.redisPrefix}-${++this.prefixes}`;
  }

  file(name: string): string {
    mkdirSync(this.tmp, { recursive: true });
    return join(this.tmp, name);
  }

  /** The environment of a Sesame app (and of the floor, which reads the same variables). */
  sesameEnv(platform: 'express' | 'fastify', redisPrefix: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      HTTP_PLATFORM: platform,
      DATABASE_URL: this.databaseUrl,
      DATABASE_POOL_SIZE: String(this.settings.poolSize),
      REDIS_URL: this.settings.redisUrl,
      REDIS_PREFIX: redisPrefix,
      SECRETS_KEY: this.secretsKey,
      PLATFORM_API_KEY: this.platformKey,
      PUBLIC_BASE_URL: 'http://localhost:3000/api',
      LOG_LEVEL: this.settings.logLevel,
      ...RAISED_LIMITS,
      ...extra,
    };
  }

  /** Starts a Sesame app as `node dist/apps/<app>/src/main.js`, pinned to the server CPU (or `cpu`) unless told otherwise. */
  async startSesame(
    app: SesameApp,
    platform: 'express' | 'fastify',
    options: {
      pin?: boolean;
      cpu?: number | null;
      env?: NodeJS.ProcessEnv;
      nodeArgs?: string[];
      redisPrefix?: string;
      readyPath?: string;
      port?: number;
    } = {},
  ): Promise<RunningServer> {
    const port = options.port ?? (await freePort());
    const env = this.sesameEnv(platform, options.redisPrefix ?? this.nextRedisPrefix(), {
      [PORT_VARIABLE[app]]: String(port),
      ...this.sesameEnvExtra,
      ...options.env,
    });
    const script = join(DIST, 'apps', app, 'src', 'main.js');
    return this.startServer(
      [...this.sesameNodeArgs, ...(options.nodeArgs ?? []), script],
      env,
      port,
      options.pin !== false,
      options.readyPath,
      options.cpu,
    );
  }

  /** Starts any node server listening on `port` with a /api/health route (or the given one), pinned to the server CPU (or `cpu`) when `pin`. */
  async startServer(
    args: string[],
    env: NodeJS.ProcessEnv,
    port: number,
    pin = true,
    healthPath = '/api/health',
    cpu: number | null = this.settings.serverCpu,
  ): Promise<RunningServer> {
    const spawned = startPinned(pin ? cpu : null, process.execPath, args, env);
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitUntilUp(url + healthPath, spawned, 60_000);
    } catch (error) {
      await spawned.stop();
      throw error;
    }
    return { url, process: spawned, stop: () => spawned.stop() };
  }
}

export { freePort };
