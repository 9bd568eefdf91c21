import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface ServerOptions {
  appendOnly?: boolean;
  /** The listen backlog: 1 lets `freeze()` fill it, so that a new connection waits in 'connecting'. */
  backlog?: number;
  replicaOf?: ThrowawayRedis;
  sentinelConfig?: string;
}

/**
 * A redis-server of a test's own, which the test may stop or kill and start again on the same
 * port to see how the apps behave while Redis is down and after it is back. Without persistence
 * by default; with `appendOnly` it keeps an append-only file in a directory of its own, as a
 * production Redis would, so that what it had survives a restart (unless `wipe()`d).
 */
export class ThrowawayRedis {
  private child: ChildProcess | null = null;
  private fillers: Socket[] = [];

  private constructor(
    readonly port: number,
    private readonly dataDir: string | null,
    private readonly options: ServerOptions,
  ) {}

  /**
   * A replica of another server (`replicaOf`), or a sentinel given its configuration file
   * (`sentinelConfig`, which it rewrites as it learns).
   */
  static async start(options: ServerOptions = {}): Promise<ThrowawayRedis> {
    // A replica writes the primary's snapshot to its directory: one of its own, not the working directory.
    const dataDir = options.appendOnly || options.replicaOf ? mkdtempSync(join(tmpdir(), 'sesame-redis-')) : null;
    const redis = new ThrowawayRedis(await freePort(), dataDir, options);
    await redis.restart();
    return redis;
  }

  get running(): boolean {
    return this.child !== null;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server (again) on its port and resolves when it accepts connections. */
  async restart(): Promise<void> {
    if (this.child) throw new Error('redis-server is already running');
    const { appendOnly, replicaOf, sentinelConfig } = this.options;
    const persistence = [...(this.dataDir ? ['--dir', this.dataDir] : []), '--appendonly', appendOnly ? 'yes' : 'no'];
    const role = sentinelConfig ? [sentinelConfig, '--sentinel'] : [];
    const replica = replicaOf ? ['--replicaof', '127.0.0.1', String(replicaOf.port)] : [];
    const backlog = this.options.backlog ? ['--tcp-backlog', String(this.options.backlog)] : [];
    const args = [...role, '--port', String(this.port), '--bind', '127.0.0.1', '--save', '', ...persistence, ...replica, ...backlog];
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    // A sentinel logs no "Ready": it is ready once it monitors its primary.
    const ready = sentinelConfig ? '+monitor master' : 'Ready to accept connections';
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(ready)) {
          child.stdout!.off('data', onData);
          child.stdout!.resume();
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.resume();
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
    });
  }

  /** Kills the server at once (as a crash would) and resolves when it is gone. */
  kill(): Promise<void> {
    return this.end('SIGKILL');
  }

  /** Shuts the server down as an operator would (SIGTERM: it writes its data first) and resolves when it is gone. */
  stop(): Promise<void> {
    return this.end('SIGTERM');
  }

  /**
   * Stops the server (SIGSTOP) and fills its listen backlog (started with `backlog: 1`): open
   * connections stay open and unanswered, and a new one is never accepted, so a client that
   * reconnects stays 'connecting' until `thaw()`.
   */
  async freeze(): Promise<void> {
    if (!this.options.backlog) throw new Error('freeze() needs a server started with backlog: 1');
    this.child!.kill('SIGSTOP');
    this.fillers = Array.from({ length: 4 }, () => connect(this.port, '127.0.0.1').on('error', () => undefined));
    // The first connections fill the queue; the one after them gets no answer to its SYN.
    await Promise.all(this.fillers.slice(0, 2).map((filler) => once(filler, 'connect')));
  }

  /** Lets the frozen server go on (SIGCONT): it accepts the connections that waited. */
  thaw(): void {
    this.child!.kill('SIGCONT');
    for (const filler of this.fillers) filler.destroy();
    this.fillers = [];
  }

  /** Deletes the stopped server's data (a lost disk): it starts again empty. */
  wipe(): void {
    if (this.child) throw new Error('stop redis-server before wiping its data');
    if (this.dataDir) rmSync(join(this.dataDir, 'appendonlydir'), { recursive: true, force: true });
  }

  /** Stops the server and deletes its data directory. */
  async remove(): Promise<void> {
    await this.kill();
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async end(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child) return;
    if (this.fillers.length > 0) this.thaw();
    this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  }
}
