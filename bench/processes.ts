import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

export interface Spawned {
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Starts a process, keeping its output for error messages; stop() ends it by its pid. */
export function start(command: string, args: string[], env: NodeJS.ProcessEnv): Spawned {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = once(child, 'exit');
  return {
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
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
    if (await fetch(url).then((response) => response.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up in ${deadlineMs} ms:\n${spawned.output()}`);
}

/** Runs a process to its end and returns its standard output. */
export async function runToEnd(command: string, args: string[], timeoutMs: number): Promise<string> {
  const spawned = start(command, args, process.env);
  const timer = setTimeout(() => spawned.process.kill('SIGKILL'), timeoutMs);
  let stdout = '';
  spawned.process.stdout!.on('data', (chunk) => (stdout += chunk));
  const [code] = (await once(spawned.process, 'exit')) as [number | null];
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${spawned.output()}`);
  return stdout;
}
