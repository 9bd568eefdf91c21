import { ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Readable, Writable } from 'node:stream';

export interface ProcessSpec {
  /** Shown before every output line, and in error messages. */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** How long a child gets to shut down after SIGTERM before it is killed. */
const STOP_GRACE_MS = 10_000;
/** Lines kept per child, to repeat the output of one that fails amid the others' lines. */
const RECENT_LINES = 60;

const COLORS = [36, 35, 33, 32, 34, 31];

export class SupervisedProcess {
  readonly exited: Promise<ExitStatus>;
  private readonly recent: string[] = [];
  private status: ExitStatus | null = null;
  private stopRequested = false;

  constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    label: string,
  ) {
    this.exited = new Promise((resolve) => {
      // 'close' rather than 'exit': it comes after the last output line, so a crash report is complete.
      child.on('close', (code, signal) => {
        this.status = { code, signal };
        resolve(this.status);
      });
      // spawn() failing (e.g. no such executable) emits 'error' and never 'exit'.
      child.on('error', (error) => {
        this.remember(`${error.message}`);
        this.status = { code: 127, signal: null };
        resolve(this.status);
      });
    });
    this.relay(child.stdout, process.stdout, label);
    this.relay(child.stderr, process.stderr, label);
  }

  get running(): boolean {
    return this.status === null;
  }

  /** True once stop() was called: an exit after that is expected, whatever its code. */
  get stopping(): boolean {
    return this.stopRequested;
  }

  recentOutput(): string {
    return this.recent.join('\n');
  }

  /** SIGTERM, then SIGKILL to the whole process group if it has not exited within the grace period. */
  async stop(graceMs = STOP_GRACE_MS): Promise<ExitStatus> {
    this.stopRequested = true;
    if (!this.running) return this.exited;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.killGroup('SIGKILL'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Synchronous last resort for when the launcher itself is exiting and cannot wait. */
  killGroup(signal: NodeJS.Signals): void {
    if (!this.running || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // Already gone.
    }
  }

  private relay(input: Readable | null, output: Writable, label: string): void {
    if (!input) return;
    createInterface({ input, crlfDelay: Infinity }).on('line', (line) => {
      this.remember(line);
      output.write(`${label} ${line}\n`);
    });
  }

  private remember(line: string): void {
    this.recent.push(line);
    if (this.recent.length > RECENT_LINES) this.recent.shift();
  }
}

/**
 * Starts child processes with their output prefixed by their name, notices when one exits on its own,
 * and stops them in the reverse order of their start (apps before the database they use).
 */
export class ProcessSupervisor {
  private readonly children: SupervisedProcess[] = [];
  private readonly labelWidth: number;
  private readonly colors = process.stdout.isTTY && !process.env.NO_COLOR;
  private readonly labels = new Map<string, string>();
  private closed = false;

  constructor(
    names: string[],
    private readonly onUnexpectedExit: (child: SupervisedProcess, status: ExitStatus) => void,
  ) {
    this.labelWidth = Math.max(...names.map((name) => name.length));
  }

  /** A long-running child: its exit before stop() is reported to onUnexpectedExit. */
  start(spec: ProcessSpec): SupervisedProcess {
    this.assertOpen(spec.name);
    const child = this.spawn(spec);
    void child.exited.then((status) => {
      if (!child.stopping) this.onUnexpectedExit(child, status);
    });
    return child;
  }

  /** A one-shot command (e.g. migrations): resolves when it exits with 0, rejects with its output otherwise. */
  async run(spec: ProcessSpec): Promise<void> {
    this.assertOpen(spec.name);
    const child = this.spawn(spec);
    const status = await child.exited;
    this.children.splice(this.children.indexOf(child), 1);
    if (status.code !== 0) {
      throw new ChildFailedError(child, status);
    }
  }

  /** Stops every child, newest first; afterwards nothing new can be started (a start still under way would leak it). */
  async stopAll(): Promise<void> {
    this.closed = true;
    for (const child of [...this.children].reverse()) {
      await child.stop();
    }
  }

  /** For process.on('exit'): the launcher is going away; never leave children holding ports behind. */
  killAllNow(): void {
    for (const child of this.children) child.killGroup('SIGTERM');
  }

  /** `[name]` padded to the longest name, coloured on a terminal (one colour per name). */
  label(name: string): string {
    let label = this.labels.get(name);
    if (label === undefined) {
      const text = `[${name}]`.padEnd(this.labelWidth + 2);
      label = this.colors ? `\x1b[${COLORS[this.labels.size % COLORS.length]}m${text}\x1b[0m` : text;
      this.labels.set(name, label);
    }
    return label;
  }

  private assertOpen(name: string): void {
    if (this.closed) throw new Error(`Not starting ${name}: shutting down`);
  }

  private spawn(spec: ProcessSpec): SupervisedProcess {
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      // Output goes through a pipe either way: without a terminal at the end, ask the children for plain text.
      env: { ...(spec.env ?? process.env), ...(this.colors ? {} : { NO_COLOR: '1' }) },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: Ctrl-C in the terminal then reaches only the launcher, which stops the
      // children in order (apps first, the database last) instead of all of them at once.
      detached: true,
    });
    const supervised = new SupervisedProcess(spec.name, child, this.label(spec.name));
    this.children.push(supervised);
    return supervised;
  }
}

export class ChildFailedError extends Error {
  constructor(
    readonly child: SupervisedProcess,
    readonly status: ExitStatus,
  ) {
    super(`${child.name} ${describeExit(status)}`);
    this.name = 'ChildFailedError';
  }
}

export function describeExit(status: ExitStatus): string {
  return status.signal ? `was killed by ${status.signal}` : `exited with code ${status.code}`;
}
