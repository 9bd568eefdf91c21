/**
 * Many idle connections held open to auth-api and management-api — half saying nothing, half
 * stopping in the middle of their headers (slowloris) — while logins and management requests go on:
 * each must be answered as usual, and its e-mail delivered.
 */
import { once } from 'node:events';
import { connect, Socket } from 'node:net';
import { LoginLoad, tally } from './login-load';
import { DrillResult, emptyResult } from './result';
import { DrillStack, stopAll } from './stack';

/** Idle connections per app. */
const CONNECTIONS = 1000;

export async function idleConnections(stack: DrillStack): Promise<DrillResult> {
  const result = emptyResult('idle-connections');
  const apps = await stack.startApps();
  const sockets: Socket[] = [];
  try {
    for (const url of [apps.auth.url, apps.management.url]) sockets.push(...(await openIdle(url, CONNECTIONS)));
    const load = new LoginLoad(stack, 'idle', () => apps.auth.url);
    const [, management] = await Promise.all([load.run(3), managementRequests(apps.management.url, stack.ctx.seed.apiKey, 20)]);
    for (const status of management) {
      if (status === '200') result.accepted += 1;
      else result.refused[status] = (result.refused[status] ?? 0) + 1;
      if (status.startsWith('5')) result.unexpected5xx += 1;
    }
    const managementAccepted = result.accepted;
    await tally(stack, load, result, apps.management.url, () => false);
    result.accepted += managementAccepted;
  } finally {
    for (const socket of sockets) socket.destroy();
    await stopAll(apps);
  }
  return result;
}

/** Opens `count` connections; every other one sends the start of a request and no more. */
async function openIdle(url: string, count: number): Promise<Socket[]> {
  const { hostname, port } = new URL(url);
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const socket = connect(Number(port), hostname);
      socket.on('error', () => undefined); // The server may close them: that is its right.
      await once(socket, 'connect');
      if (i % 2) socket.write(`GET /api/health HTTP/1.1\r\nHost: ${hostname}\r\nX-Slow: `);
      return socket;
    }),
  );
}

async function managementRequests(url: string, apiKey: string, count: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      fetch(`${url}/api/v2/organization`, { headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(15_000) }).then(
        async (response) => (await response.arrayBuffer(), String(response.status)),
        (error: Error) => (error.name === 'TimeoutError' ? 'timeout' : 'error'),
      ),
    ),
  );
}
