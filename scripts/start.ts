/**
 * `npm start`: the whole stack on one machine. Postgres (DATABASE_URL, or an embedded cluster under
 * .data/), Redis (REDIS_URL, or a local redis-server with its data under .data/), a mail catcher, migrations, the console's set-up, the four apps, a
 * gateway on :3000 and a demo tenant whose credentials (and console owner) it prints. Ctrl-C stops
 * everything; the data stays in .data/ for next time. See docs/local-development.md.
 */
import 'reflect-metadata';
import { join, resolve } from 'node:path';
import { parseEnvironment, SesameConfig } from '@sesame/common';
import { DemoData, DemoSeedResult, ensureDemo } from './launcher/demo-seed';
import { EmbeddedPostgresOptions, embeddedPostgresUrl, startEmbeddedPostgres } from './launcher/embedded-postgres';
import { findRedisServer, LocalRedisOptions, REDIS_INSTALL_HINT, startLocalRedis } from './launcher/local-redis';
import { GatewayRoute, RunningGateway, startGateway } from './launcher/gateway';
import { LocalSecrets, loadLocalSecrets } from './launcher/local-secrets';
import { MailCatcherOptions, mailCatcherSmtpUrl, startMailCatcher } from './launcher/mail-catcher';
import { assertPortsFree, NamedPort } from './launcher/ports';
import { ChildFailedError, describeExit, ExitStatus, ProcessSupervisor, SupervisedProcess } from './launcher/process-supervisor';
import { errorMessage, httpOk, tcpOpen, waitUntil } from './launcher/wait';

/** The repository root: this file runs as dist/scripts/start.js. */
const ROOT = resolve(__dirname, '..', '..');
/** Local data (secrets, demo credentials, embedded Postgres, mail): SESAME_DATA_DIR, by default .data/. */
const DATA_DIR = process.env.SESAME_DATA_DIR ? resolve(process.env.SESAME_DATA_DIR) : join(ROOT, '.data');

const APPS = ['management-api', 'auth-api', 'mail-worker', 'console'] as const;
type AppName = (typeof APPS)[number];

/** Variables of the launcher itself; the apps' own variables are in docs/configuration.md. */
interface LauncherSettings {
  gatewayPort: number;
  embeddedPostgresPort: number;
  /** Where the local Redis is looked for, and started if need be, when REDIS_URL is unset. */
  localRedisPort: number;
  smtpPort: number;
  inboxPort: number;
  /** The demo tenant's owner, who signs in to the console (DEMO_OWNER_EMAIL). */
  demoOwnerEmail: string;
}

interface LaunchPlan {
  settings: LauncherSettings;
  secrets: LocalSecrets;
  /** Set when DATABASE_URL is not: run an embedded cluster. */
  embeddedPostgres: EmbeddedPostgresOptions | null;
  /** Set when REDIS_URL is not: use the local Redis, or start one. */
  localRedis: LocalRedisOptions | null;
  /** Set when SMTP_URL is not: run MailDev. */
  mailCatcher: MailCatcherOptions | null;
  /** The apps' environment. */
  env: NodeJS.ProcessEnv;
  config: SesameConfig;
}

class Launcher {
  private readonly supervisor = new ProcessSupervisor(
    ['launcher', 'redis', 'postgres', 'maildev', 'migrate', 'console-setup', ...APPS],
    (child, status) => this.onUnexpectedExit(child, status),
  );
  private gateway: RunningGateway | null = null;
  private stopping: Promise<void> | null = null;

  async run(): Promise<void> {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      // Repeated signals (npm forwards Ctrl-C to us as well) must not start a second shutdown.
      process.on(signal, () => void this.stop(0, `Received ${signal}, stopping…`));
    }
    // Last resort if the launcher dies some other way: children never outlive it holding the ports.
    process.on('exit', () => this.supervisor.killAllNow());

    try {
      await this.start(await this.plan());
    } catch (error) {
      if (this.stopping) return; // A shutdown is under way: failures of the interrupted start are expected.
      this.report(error);
      await this.stop(1);
    }
  }

  private async plan(): Promise<LaunchPlan> {
    const settings = launcherSettings(process.env);
    const { secrets, generated } = await loadLocalSecrets(join(DATA_DIR, 'secrets.json'));
    if (generated.length > 0) this.say(`Generated ${generated.join(', ')} in .data/secrets.json`);
    const embeddedPostgres = isSet(process.env.DATABASE_URL)
      ? null
      : {
          dataDir: join(DATA_DIR, 'postgres'),
          port: settings.embeddedPostgresPort,
          password: secrets.postgresPassword,
          database: 'sesame',
        };
    const localRedis = isSet(process.env.REDIS_URL) ? null : { dataDir: join(DATA_DIR, 'redis'), port: settings.localRedisPort };
    const mailCatcher = isSet(process.env.SMTP_URL)
      ? null
      : { smtpPort: settings.smtpPort, webPort: settings.inboxPort, mailDir: join(DATA_DIR, 'mail') };

    const env = withDefaults(process.env, {
      NODE_ENV: 'development',
      LOG_FORMAT: 'pretty',
      SECRETS_KEY: secrets.secretsKey,
      PLATFORM_API_KEY: secrets.platformApiKey,
      ...(embeddedPostgres && { DATABASE_URL: embeddedPostgresUrl(embeddedPostgres) }),
      ...(localRedis && { REDIS_URL: `redis://127.0.0.1:${localRedis.port}` }),
      ...(mailCatcher && { SMTP_URL: mailCatcherSmtpUrl(mailCatcher) }),
      // The apps sit behind the gateway, which connects from loopback and sets X-Forwarded-*.
      TRUST_PROXY: 'loopback',
      // One instance of each app on one machine: Ctrl-C stops them at once, there is nothing to drain to.
      SHUTDOWN_DRAIN_SECONDS: '0',
      ...consoleDefaults(settings),
    });
    // The public URL depends on API_PREFIX, which only the parsed configuration normalises.
    env.PUBLIC_BASE_URL ||= `http://localhost:${settings.gatewayPort}/${parseEnvironment(env).http.apiPrefix}`;
    return { settings, secrets, embeddedPostgres, localRedis, mailCatcher, env, config: parseEnvironment(env) };
  }

  private async start(plan: LaunchPlan): Promise<void> {
    const { settings, config, env } = plan;
    await assertPortsFree(portsToClaim(plan));
    await this.ensureRedis(plan);

    if (plan.embeddedPostgres) {
      this.say(`Starting the embedded Postgres (data in .data/postgres, port ${plan.embeddedPostgres.port})`);
      await startEmbeddedPostgres(this.supervisor, plan.embeddedPostgres);
    }
    const inboxUrl = plan.mailCatcher ? (await startMailCatcher(this.supervisor, plan.mailCatcher)).inboxUrl : null;

    this.say('Applying database migrations');
    await this.supervisor.run({
      name: 'migrate',
      command: process.execPath,
      args: [appEntry('management-api', 'cli'), 'migrate'],
      env,
      cwd: ROOT,
    });
    await this.setUpConsole(env);

    const apps = APPS.map((name) =>
      this.supervisor.start({ name, command: process.execPath, args: [appEntry(name, 'main')], env, cwd: ROOT }),
    );
    this.gateway = await startGateway(gatewayRoutes(config), settings.gatewayPort);
    await Promise.all(apps.map((app) => waitForHealth(app, config)));

    const managementUrl = `http://127.0.0.1:${settings.gatewayPort}/${config.http.apiPrefix}/v2`;
    const platformApiKey = config.secrets.platformApiKey ?? plan.secrets.platformApiKey;
    const { demo, state } = await ensureDemo({
      managementUrl,
      platformApiKey,
      ownerEmail: settings.demoOwnerEmail,
      file: join(DATA_DIR, 'demo.json'),
    });
    printSummary({ config, demo, demoState: state, inboxUrl, smtpUrl: config.mail.smtpUrl });
  }

  /** The console's system tenant and application, and its credentials in the file the console reads (CONSOLE_CREDENTIALS_FILE). */
  private async setUpConsole(env: NodeJS.ProcessEnv): Promise<void> {
    this.say('Setting up the console');
    await this.supervisor.run({
      name: 'console-setup',
      command: process.execPath,
      args: [appEntry('management-api', 'cli'), 'console:setup', '--credentials-file', env.CONSOLE_CREDENTIALS_FILE!],
      env,
      cwd: ROOT,
    });
  }

  /**
   * A Redis that answers is used as it is. Without REDIS_URL and with nothing on the local port, the
   * launcher starts redis-server when it is installed (as it starts the embedded Postgres), else it
   * says in one line how to install one, instead of letting every health check time out.
   */
  private async ensureRedis(plan: LaunchPlan): Promise<void> {
    const { hostname, port } = new URL(plan.config.redis.url);
    if (
      await tcpOpen(hostname, Number(port || 6379)).then(
        () => true,
        () => false,
      )
    )
      return;
    if (!plan.localRedis) throw new Error(`Redis is not reachable at ${plan.config.redis.url}. Start it or correct REDIS_URL.`);
    const executable = findRedisServer();
    if (!executable) throw new Error(REDIS_INSTALL_HINT);
    this.say(`Starting a local Redis (append-only, data in .data/redis, port ${plan.localRedis.port})`);
    await startLocalRedis(this.supervisor, executable, plan.localRedis);
  }

  private onUnexpectedExit(child: SupervisedProcess, status: ExitStatus): void {
    if (this.stopping) return;
    this.report(new ChildFailedError(child, status));
    void this.stop(1);
  }

  /** Stops the gateway, then the children newest first (apps before the database), then exits. */
  private stop(code: number, message?: string): Promise<void> {
    this.stopping ??= (async () => {
      if (message) this.say(message);
      await this.gateway?.close();
      await this.supervisor.stopAll();
      this.say(code === 0 ? 'Stopped.' : 'Stopped after an error.');
      process.exit(code);
    })();
    return this.stopping;
  }

  private report(error: unknown): void {
    if (error instanceof ChildFailedError) {
      const output = error.child.recentOutput();
      console.error(`\n${error.child.name} ${describeExit(error.status)}.${output ? ` Its last output:\n\n${output}\n` : ''}`);
      return;
    }
    console.error(`\n${errorMessage(error)}\n`);
  }

  private say(message: string): void {
    console.log(`${this.supervisor.label('launcher')} ${message}`);
  }
}

function launcherSettings(env: NodeJS.ProcessEnv): LauncherSettings {
  return {
    gatewayPort: portFromEnv(env, 'GATEWAY_PORT', 3000),
    embeddedPostgresPort: portFromEnv(env, 'EMBEDDED_POSTGRES_PORT', 5433),
    localRedisPort: portFromEnv(env, 'LOCAL_REDIS_PORT', 6379),
    smtpPort: portFromEnv(env, 'MAILDEV_SMTP_PORT', 1025),
    inboxPort: portFromEnv(env, 'MAILDEV_WEB_PORT', 1080),
    demoOwnerEmail: env.DEMO_OWNER_EMAIL?.trim() || 'admin@example.com',
  };
}

/** The console at the gateway's /console, with its credentials kept in the data directory. */
function consoleDefaults(settings: LauncherSettings): Record<string, string> {
  return {
    CONSOLE_PUBLIC_URL: `http://localhost:${settings.gatewayPort}/console`,
    CONSOLE_CREDENTIALS_FILE: join(DATA_DIR, 'console.json'),
  };
}

function portFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name]?.trim();
  if (!value) return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65535) throw new Error(`${name} must be a port number (1-65535), not "${value}"`);
  return port;
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}

/** The environment with each default applied where the variable is unset or empty (as parseEnvironment treats empty). */
function withDefaults(env: NodeJS.ProcessEnv, defaults: Record<string, string>): NodeJS.ProcessEnv {
  const result = { ...env };
  for (const [name, value] of Object.entries(defaults)) {
    if (!isSet(result[name])) result[name] = value;
  }
  return result;
}

function portsToClaim(plan: LaunchPlan): NamedPort[] {
  const { ports } = plan.config.http;
  return [
    { name: 'gateway', port: plan.settings.gatewayPort },
    { name: 'management-api', port: ports.management },
    { name: 'auth-api', port: ports.auth },
    { name: 'mail-worker', port: ports.mailWorker },
    { name: 'console', port: ports.console },
    ...(plan.embeddedPostgres ? [{ name: 'embedded Postgres', port: plan.embeddedPostgres.port }] : []),
    ...(plan.mailCatcher
      ? [
          { name: 'MailDev SMTP', port: plan.mailCatcher.smtpPort },
          { name: 'MailDev inbox', port: plan.mailCatcher.webPort },
        ]
      : []),
  ];
}

function appEntry(app: AppName, file: 'main' | 'cli'): string {
  return join(ROOT, 'dist', 'apps', app, 'src', `${file}.js`);
}

/** Public routes, as the nginx gateway of the compose setup has them. */
function gatewayRoutes(config: SesameConfig): GatewayRoute[] {
  const prefix = `/${config.http.apiPrefix}`;
  const origin = (port: number) => `http://${loopbackHost(config.http.host)}:${port}`;
  const auth = origin(config.http.ports.auth);
  return [
    { name: 'auth-api', prefix: `${prefix}/v1`, target: auth },
    { name: 'management-api', prefix: `${prefix}/v2`, target: origin(config.http.ports.management) },
    { name: 'console', prefix: '/console', target: origin(config.http.ports.console) },
    // RFC 8414 §3: metadata of an issuer with a path lives at /.well-known/oauth-authorization-server/<path>.
    {
      name: 'auth-api',
      prefix: `/.well-known/oauth-authorization-server${prefix}/v1`,
      target: auth,
      rewrite: `${prefix}/v1/.well-known/oauth-authorization-server`,
    },
  ];
}

/** Apps listening on every interface are reached over loopback. */
function loopbackHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
}

function waitForHealth(app: SupervisedProcess, config: SesameConfig): Promise<void> {
  const ports: Record<AppName, number> = {
    'management-api': config.http.ports.management,
    'auth-api': config.http.ports.auth,
    'mail-worker': config.http.ports.mailWorker,
    console: config.http.ports.console,
  };
  const url = `http://${loopbackHost(config.http.host)}:${ports[app.name as AppName]}/${config.http.apiPrefix}/health`;
  return waitUntil(() => httpOk(url), { description: `${app.name} to answer GET ${url} with 200`, process: app });
}

function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

interface Summary {
  config: SesameConfig;
  demo: DemoData;
  demoState: DemoSeedResult['state'];
  inboxUrl: string | null;
  smtpUrl: string;
}

const DEMO_STATES: Record<DemoSeedResult['state'], string> = {
  created: 'created now',
  reused: 'from .data/demo.json',
  unverified: 'from .data/demo.json, not checked: rate limited',
};

function printSummary({ config, demo, demoState, inboxUrl, smtpUrl }: Summary): void {
  const base = config.http.publicBaseUrl;
  const rows: [string, string][] = [
    ['Public base URL', `${base}   (/v1 → auth-api, /v2 → management-api)`],
    ['Console', `${config.console.publicUrl}   (sign in as ${demo.ownerEmail}: the link arrives in the mail inbox)`],
    ['Management API', `${base}/v2/docs   (OpenAPI: ${base}/v2/openapi.json)`],
    ['Auth API', `${base}/v1/docs   (OpenAPI: ${base}/v1/openapi.json)`],
    ['Mail', inboxUrl ? `${inboxUrl}   (web inbox; SMTP ${smtpUrl})` : `sent to ${withoutPassword(smtpUrl)}`],
    ['Platform key', `${config.secrets.platformApiKey}   (creates tenants; kept in .data/secrets.json)`],
  ];
  const demoRows: [string, string][] = [
    ['API key', demo.apiKey],
    ['Tenant id', demo.tenantId],
    ['Organization id', demo.organizationId],
    ['Client id', demo.clientId],
    ['Client secret', demo.clientSecret],
    ['Callback URL', demo.callbackUrl],
  ];
  const table = (entries: [string, string][]) => entries.map(([name, value]) => `  ${name.padEnd(16)} ${value}`).join('\n');
  console.log(
    [
      '',
      'Sesame is running.',
      '',
      table(rows),
      '',
      `Demo tenant (plan pro, ${DEMO_STATES[demoState]}, owner ${demo.ownerEmail}), organization and web application:`,
      table(demoRows),
      '',
      'Try:',
      `  curl -H "Authorization: Bearer ${demo.apiKey}" ${base}/v2/organization/${demo.organizationId}`,
      `  or open ${config.console.publicUrl}, enter ${demo.ownerEmail} and follow the link in ${inboxUrl ?? 'the e-mail'}`,
      '',
      'Press Ctrl-C to stop. Data is kept in .data/ (delete it to start over).',
      '',
    ].join('\n'),
  );
}

void new Launcher().run();
