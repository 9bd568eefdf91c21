import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { setPriority } from 'node:os';

export interface Spawned {
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** How much of a process's output is kept for error messages (servers may log on every request). */
const KEPT_OUTPUT = 1024 * 1024;

/** Starts a process, keeping the end of its output for error messages; stop() ends it by its pid. */
export function start(command: string, args: string[], env: NodeJS.ProcessEnv): Spawned {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 2 * KEPT_OUTPUT) output = output.slice(-KEPT_OUTPUT);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = once(child, 'exit');
  return {
    process: child,
    output: () => output.slice(-KEPT_OUTPUT),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

let tasksetWorks: boolean | undefined;

/** Whether `taskset` (util-linux) is installed and may pin processes here. */
export function tasksetAvailable(): boolean {
  if (tasksetWorks === undefined) {
    const probe = spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' });
    tasksetWorks = probe.status === 0;
  }
  return tasksetWorks;
}

/**
 * The command line that runs `command` on one CPU (`taskset -c <cpu>`, which execs the command,
 * so the pid stays the command's), or unpinned when cpu is null or taskset is missing.
 */
export function pinned(cpu: number | null, command: string, args: string[]): [string, string[]] {
  if (cpu === null || !tasksetAvailable()) return [command, args];
  return ['taskset', ['-c', String(cpu), command, ...args]];
}

/** Moves a running process, every thread of it, to one CPU (no-op without taskset). */
export function pinProcess(pid: number, cpu: number): void {
  if (tasksetAvailable()) spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
}

/** Lowers a running process's CPU priority, every thread of it (Linux sets the niceness per thread). */
export function reniceProcess(pid: number, niceness: number): void {
  for (const thread of readdirSync(`/proc/${pid}/task`)) setPriority(Number(thread), niceness);
}

/** start(), on one CPU when cpu is not null. */
export function startPinned(cpu: number | null, command: string, args: string[], env: NodeJS.ProcessEnv): Spawned {
  const [pinnedCommand, pinnedArgs] = pinned(cpu, command, args);
  return start(pinnedCommand, pinnedArgs, env);
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export async function waitUntilUp(url: string, spawned: Spawned, deadlineMs = 30_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (spawned.process.exitCode !== null) throw new Error(`The server exited early:\n${spawned.output()}`);
    if (
      await fetch(url).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up in ${deadlineMs} ms:\n${spawned.output()}`);
}

/** Runs a process to its end and returns its standard output. */
export async function runToEnd(command: string, args: string[], timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const spawned = start(command, args, env);
  const timer = setTimeout(() => spawned.process.kill('SIGKILL'), timeoutMs);
  let stdout = '';
  spawned.process.stdout!.on('data', (chunk) => (stdout += chunk));
  const [code] = (await once(spawned.process, 'exit')) as [number | null];
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${spawned.output()}`);
  return stdout;
}
