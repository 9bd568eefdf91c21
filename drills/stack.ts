/**
 * The drills' environment: a throwaway database (with a seeded pro tenant, through bench/'s
 * BenchContext), a redis-server of their own on a free port with append-only on, and an SMTP sink
 * they control. Each drill starts the apps it needs as separate processes, under a Redis prefix of
 * its own, so that one drill's killed worker or lost queue never reaches the next.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { BenchContext, RunningServer, SesameApp } from '../bench/context';
import { benchSettings, log } from '../bench/settings';
import { SmtpSink } from '../test/support/smtp-sink';
import { ThrowawayRedis } from '../test/support/throwaway-redis';

/** What every drill's apps run with on top of bench's environment. */
const DRILL_ENV: NodeJS.ProcessEnv = {
  LOG_LEVEL: 'warn',
  // A lost queue is found again within seconds of the sweeper's 30 s grace, not half a minute later.
  MAIL_SWEEP_INTERVAL_SECONDS: '2',
  MAINTENANCE_INTERVAL_SECONDS: '0',
};

export interface Apps {
  management: RunningServer;
  auth: RunningServer;
  worker: RunningServer;
  prefix: string;
}

export class DrillStack {
  /** Every app started and not yet stopped, so that a drill cut off at its time bound leaves none behind. */
  private readonly running = new Set<RunningServer>();

  private constructor(
    readonly ctx: BenchContext,
    readonly redis: ThrowawayRedis,
    readonly smtp: SmtpSink,
    /** The sink's address, kept while it is down. */
    readonly smtpUrl: string,
  ) {}

  /** `adminDatabaseUrl`: a Postgres other than the machine's (BENCH_DATABASE_ADMIN_URL's) for the throwaway database. */
  static async start(options: { adminDatabaseUrl?: string } = {}): Promise<DrillStack> {
    const redis = await ThrowawayRedis.start({ appendOnly: true });
    const smtp = new SmtpSink();
    await smtp.start();
    const settings = { ...benchSettings(), redisUrl: redis.url, serverCpu: null, loadCpu: null, logLevel: 'warn' };
    const ctx = new BenchContext({ ...settings, adminDatabaseUrl: options.adminDatabaseUrl ?? settings.adminDatabaseUrl });
    ctx.sesameEnvExtra = DRILL_ENV;
    await ctx.setUp();
    log(`drills: Redis on ${redis.url} (append-only), SMTP sink on ${smtp.url}`);
    return new DrillStack(ctx, redis, smtp, smtp.url);
  }

  async stop(): Promise<void> {
    await this.stopApps();
    await this.ctx.tearDown();
    await this.redis.remove();
    await this.smtp.stop();
  }

  /** Starts one app under `prefix` with the sink as its SMTP server. */
  async startApp(
    app: SesameApp,
    prefix: string,
    env: NodeJS.ProcessEnv = {},
    platform: 'express' | 'fastify' = 'express',
    port?: number,
  ): Promise<RunningServer> {
    const server = await this.ctx.startSesame(app, platform, {
      pin: false,
      redisPrefix: prefix,
      port,
      env: { SMTP_URL: this.smtpUrl, ...env },
    });
    this.running.add(server);
    return {
      ...server,
      stop: async () => {
        await server.stop();
        this.running.delete(server);
      },
    };
  }

  /** Stops every app still running. */
  async stopApps(): Promise<void> {
    await Promise.all([...this.running].map((server) => server.stop()));
    this.running.clear();
  }

  /** management-api, auth-api and mail-worker under a fresh prefix. */
  async startApps(env: NodeJS.ProcessEnv = {}): Promise<Apps> {
    const prefix = this.ctx.nextRedisPrefix();
    const [management, auth, worker] = await Promise.all(
      (['management-api', 'auth-api', 'mail-worker'] as const).map((app) => this.startApp(app, prefix, env)),
    );
    return { management, auth, worker, prefix };
  }

  /** Runs SQL on the throwaway database through a connection of its own. */
  async sql<T extends object>(text: string, parameters: unknown[] = []): Promise<T[]> {
    const client = new Client({ connectionString: this.ctx.databaseUrl });
    await client.connect();
    try {
      return (await client.query(text, parameters)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** A distinct, recognisable address for every request. */
  address(drill: string): string {
    return `drill-${drill}-${randomBytes(5).toString('hex')}@drills.example`;
  }
}

export async function stopAll(apps: Partial<Apps>, ...more: (RunningServer | undefined)[]): Promise<void> {
  await Promise.all(
    [apps.management, apps.auth, apps.worker, ...more].filter((app): app is RunningServer => app !== undefined).map((app) => app.stop()),
  );
}
