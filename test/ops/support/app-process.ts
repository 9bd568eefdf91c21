import { ChildProcess, spawn } from 'node:child_process';
import { freePort, onFreePort } from '../../support/apps';
import { FILE_REDIS_PREFIX } from '../../support/config';
import { healthCheckCommand, REPOSITORY_ROOT, startCommand } from './dockerfile';
import { LINE_WAIT_MS, LineCollector, START_UP_WAIT_MS } from './lines';

/** The apps every test of the login flow runs. */
export type AppName = 'management-api' | 'auth-api' | 'mail-worker';
/** Every app with a Dockerfile target: the console too. */
export type ProcessName = AppName | 'console';

const PORT_VARIABLES: Record<ProcessName, string> = {
  'management-api': 'MANAGEMENT_PORT',
  'auth-api': 'AUTH_PORT',
  'mail-worker': 'MAIL_WORKER_PORT',
  console: 'CONSOLE_PORT',
};

export type LogLine = Record<string, unknown> & { msg?: string; level?: string; requestId?: string; app?: string };

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Runs a command from docker/Dockerfile in the repository (the image's /app has the same layout) and collects its output. */
export class DockerCommandProcess {
  readonly output = new LineCollector();
  readonly exited: Promise<Exit>;
  private readonly child: ChildProcess;

  constructor(
    readonly command: string[],
    readonly env: NodeJS.ProcessEnv,
  ) {
    this.child = spawn(command[0], command.slice(1), { cwd: REPOSITORY_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.output.attach(this.child.stdout!);
    this.output.attach(this.child.stderr!);
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }
}

/** One of the apps as a separate process, started with its Dockerfile CMD. */
export class AppProcess extends DockerCommandProcess {
  constructor(
    readonly name: ProcessName,
    readonly port: number,
    env: NodeJS.ProcessEnv,
  ) {
    super(startCommand(name), env);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Every JSON log line so far (any other output is left out; see `output` for all of it). */
  logs(): LogLine[] {
    return this.output.lines.flatMap((line) => {
      try {
        const parsed = JSON.parse(line) as unknown;
        return parsed && typeof parsed === 'object' ? [parsed as LogLine] : [];
      } catch {
        return [];
      }
    });
  }

  /** Resolves with the first log line (seen or still to come) that matches. */
  async waitForLog(match: (line: LogLine) => boolean, timeoutMs = LINE_WAIT_MS, what = 'a log line'): Promise<LogLine> {
    const parse = (line: string): LogLine | null => {
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        return null;
      }
    };
    const line = await this.output.waitFor(
      (text) => {
        const parsed = parse(text);
        return parsed !== null && match(parsed);
      },
      timeoutMs,
      `${this.name}: ${what}`,
    );
    return parse(line)!;
  }

  /** Waits until main.ts reports the app listening. */
  async started(): Promise<this> {
    const failed = this.exited.then((exit) => {
      throw new Error(`${this.name} exited (${JSON.stringify(exit)}) before starting:\n${this.output.lines.slice(-20).join('\n')}`);
    });
    await Promise.race([
      this.waitForLog((line) => line.context === 'Main' && String(line.msg).startsWith('Listening on '), START_UP_WAIT_MS, 'start-up'),
      failed,
    ]);
    return this;
  }

  /** Sends SIGTERM (or another signal) and resolves with how the process ended. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<Exit> {
    if (this.running) this.kill(signal);
    return this.exited;
  }

  /** Runs the image's HEALTHCHECK command against this app; resolves with its exit code. */
  async healthCheck(): Promise<number | null> {
    const check = new DockerCommandProcess(healthCheckCommand(this.name), this.env);
    return (await check.exited).code;
  }
}

/** The test run's environment (database, Redis, keys, generous limits) for an app process, with a free port. */
export async function appEnv(name: ProcessName, overrides: Record<string, string> = {}): Promise<{ port: number; env: NodeJS.ProcessEnv }> {
  const port = overrides[PORT_VARIABLES[name]] ? Number(overrides[PORT_VARIABLES[name]]) : await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    REDIS_PREFIX: FILE_REDIS_PREFIX,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'debug',
    ...overrides,
    [PORT_VARIABLES[name]]: String(port),
  };
  return { port, env };
}

/**
 * Starts an app as its container would (Dockerfile CMD), on a free loopback port, and waits until it
 * listens. A port is picked before the process binds it, so under load another process may take it
 * first: the app then exits with EADDRINUSE, and another port is tried (unless the caller chose it).
 */
export async function startAppProcess(name: ProcessName, overrides: Record<string, string> = {}): Promise<AppProcess> {
  const start = async (port: number) => {
    const { env } = await appEnv(name, { ...overrides, [PORT_VARIABLES[name]]: String(port) });
    return new AppProcess(name, port, env).started();
  };
  const chosen = overrides[PORT_VARIABLES[name]];
  return chosen ? start(Number(chosen)) : onFreePort(start);
}

/** Starts the three apps as processes sharing one environment; PUBLIC_BASE_URL defaults to the auth API's own address. */
export async function startAppProcesses(overrides: Record<string, string> = {}): Promise<Record<AppName, AppProcess>> {
  const { auth, shared } = await startPublicAuthProcess(overrides);
  const [management, worker] = await Promise.all([startAppProcess('management-api', shared), startAppProcess('mail-worker', shared)]);
  return { 'management-api': management, 'auth-api': auth, 'mail-worker': worker };
}

/** The auth API on a port picked beforehand, because PUBLIC_BASE_URL names it; another port if that one was taken meanwhile. */
export function startPublicAuthProcess(overrides: Record<string, string>): Promise<{ auth: AppProcess; shared: Record<string, string> }> {
  return onFreePort(async (authPort) => {
    const shared = { PUBLIC_BASE_URL: `http://127.0.0.1:${authPort}/api`, ...overrides };
    return { auth: await startAppProcess('auth-api', { ...shared, AUTH_PORT: String(authPort) }), shared };
  });
}
