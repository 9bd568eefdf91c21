import { ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');
/** A build of its own, so a concurrent `npm run build` in the same checkout cannot swap files under the test. */
export const E2E_BUILD = join(ROOT, 'dist', '.e2e-throttler');

/**
 * Compiles the apps (tsc + tsc-alias, as `npm run build` does) into E2E_BUILD. Type errors
 * elsewhere in the work tree do not stop tsc from emitting; a missing entry point does fail.
 */
export async function buildApps(): Promise<void> {
  const run = promisify(execFile);
  const node = process.execPath;
  await run(
    node,
    [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      'tsconfig.build.json',
      '--outDir',
      E2E_BUILD,
      '--tsBuildInfoFile',
      join(E2E_BUILD, '.tsbuildinfo'),
    ],
    { cwd: ROOT },
  ).catch(() => undefined);
  await run(node, [join(ROOT, 'node_modules/tsc-alias/dist/bin/index.js'), '-p', 'tsconfig.build.json', '--outDir', E2E_BUILD], {
    cwd: ROOT,
  });
  if (!existsSync(managementMain())) throw new Error(`The build produced no ${managementMain()}`);
}

export function managementMain(): string {
  return join(E2E_BUILD, 'apps/management-api/src/main.js');
}

/** A loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface Spawned {
  process: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** Runs a command, keeping its output for failure messages; stop() ends it by its pid. */
export function start(command: string, args: string[], env: NodeJS.ProcessEnv): Spawned {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

/**
 * Starts a management-api process on a free port and waits until that process itself listens (its
 * "Listening on" line). A port is picked before the process binds it, so under load another
 * process may take it first: the process then exits (EADDRINUSE), and this tries another port,
 * instead of mistaking the other process's answers for this one's.
 */
export async function startManagementApi(env: NodeJS.ProcessEnv, deadlineMs = 20_000): Promise<{ url: string; spawned: Spawned }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const spawned = start(process.execPath, [managementMain()], {
      ...env,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      MANAGEMENT_PORT: String(port),
    });
    const listening = `Listening on http://127.0.0.1:${port}`;
    const until = Date.now() + deadlineMs;
    while (Date.now() < until && spawned.process.exitCode === null && !spawned.output().includes(listening)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (spawned.output().includes(listening)) return { url: `http://127.0.0.1:${port}`, spawned };
    await spawned.stop();
    if (attempt === 3 || !spawned.output().includes('EADDRINUSE'))
      throw new Error(`management-api did not listen on ${port}:\n${spawned.output()}`);
  }
}
