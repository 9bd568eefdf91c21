import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { ChildFailedError, SupervisedProcess } from './process-supervisor';

export interface WaitOptions {
  /** What is awaited, for the timeout message: "auth-api to answer GET /api/health". */
  description: string;
  timeoutMs?: number;
  intervalMs?: number;
  /** The process that should become ready: if it exits, waiting longer is pointless. */
  process?: SupervisedProcess;
}

/** Repeats `attempt` until it resolves; its last error explains a timeout. */
export async function waitUntil(attempt: () => Promise<void>, options: WaitOptions): Promise<void> {
  const { timeoutMs = 60_000, intervalMs = 250 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (options.process && !options.process.running) {
      throw new ChildFailedError(options.process, await options.process.exited);
    }
    try {
      await attempt();
      return;
    } catch (error) {
      if (Date.now() >= deadline) {
        throw new Error(`Gave up after ${timeoutMs / 1000}s waiting for ${options.description}: ${errorMessage(error)}`, { cause: error });
      }
    }
    await sleep(intervalMs);
  }
}

/** Resolves when GET `url` answers 200. */
export async function httpOk(url: string): Promise<void> {
  const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status} ${body.slice(0, 300)}`);
}

/** Resolves when something accepts TCP connections on host:port. */
export function tcpOpen(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
    socket.once('timeout', () => socket.destroy(new Error(`connecting to ${host}:${port} timed out`)));
    socket.once('error', reject);
  });
}

/** Resolves when the database at `url` accepts a query (not merely a connection while it is still starting). */
export async function postgresAccepts(url: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  // An error event after connect() failed would otherwise be unhandled.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The message, with its cause's when that says more (fetch's "fetch failed" hides the real reason in its cause). */
export function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : '';
  return cause && !error.message.includes(cause) ? `${error.message} (${cause})` : error.message;
}
