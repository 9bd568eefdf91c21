import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A redis-server of a test's own, which the test may stop or kill and start again on the same
 * port to see how the apps behave while Redis is down and after it is back. Without persistence
 * by default; with `appendOnly` it keeps an append-only file in a directory of its own, as a
 * production Redis would, so that what it had survives a restart (unless `wipe()`d).
 */
export class ThrowawayRedis {
  private child: ChildProcess | null = null;

  private constructor(
    readonly port: number,
    private readonly dataDir: string | null,
  ) {}

  static async start(options: { appendOnly?: boolean } = {}): Promise<ThrowawayRedis> {
    const dataDir = options.appendOnly ? mkdtempSync(join(tmpdir(), 'sesame-redis-')) : null;
    const redis = new ThrowawayRedis(await freePort(), dataDir);
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
    const persistence = this.dataDir ? ['--appendonly', 'yes', '--dir', this.dataDir] : ['--appendonly', 'no'];
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', ...persistence], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
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
    this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  }
}
