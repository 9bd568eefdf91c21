import { createServer, request, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { StartOptions, startStack, Stack } from './apps';

/**
 * The stack behind one public address, as in production: a small node:http gateway that sends
 * `/api/v1/*` to the auth API, `/api/v2/*` to the management API, RFC 8414's
 * `/.well-known/oauth-authorization-server/api/v1` to the auth API's metadata, and whatever
 * `route()` adds (the console, at `/console`, which CONSOLE_PUBLIC_URL names).
 *
 * The gateway listens first (on a random port), so PUBLIC_BASE_URL can name it before the apps
 * start: the auth API's issuer (PUBLIC_BASE_URL + '/v1', the id_token's `iss`) is then exactly
 * the URL a standard client discovers from, and the mailed links point at the gateway too.
 */
export interface GatewayStack {
  stack: Stack;
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** e.g. http://127.0.0.1:41234/api */
  publicBaseUrl: string;
  /** e.g. http://127.0.0.1:41234/api/v1 */
  issuer: string;
  /** Routes a path prefix to another upstream (the console). */
  route(prefix: string, target: string): void;
  close(): Promise<void>;
}

export async function startGatewayStack(smtpUrl: string, options: StartOptions = {}): Promise<GatewayStack> {
  const upstreams: { prefix: string; target: string; rewrite?: string }[] = [];
  const server = createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/';
    const route = upstreams.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`));
    if (!route) {
      outgoing.writeHead(404).end();
      return;
    }
    const target = new URL(route.target);
    const upstreamPath = route.rewrite ? route.rewrite + path.slice(route.prefix.length) : path;
    const proxied = request(
      { host: target.hostname, port: target.port, method: incoming.method, path: upstreamPath, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    proxied.on('error', () => outgoing.headersSent || outgoing.writeHead(502).end());
    incoming.pipe(proxied);
  });
  await listen(server);
  const origin = `http://${options.publicHost ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  const publicBaseUrl = `${origin}/api`;

  let stack: Stack;
  try {
    stack = await startStack(smtpUrl, {
      ...options,
      env: { CONSOLE_PUBLIC_URL: `${origin}/console`, ...options.env, PUBLIC_BASE_URL: publicBaseUrl },
    });
  } catch (error) {
    await closeServer(server);
    throw error;
  }
  upstreams.push(
    // RFC 8414 §3: the metadata of an issuer with a path component.
    {
      prefix: '/.well-known/oauth-authorization-server/api/v1',
      target: stack.auth.url,
      rewrite: '/api/v1/.well-known/oauth-authorization-server',
    },
    { prefix: '/api/v1', target: stack.auth.url },
    { prefix: '/api/v2', target: stack.management.url },
  );
  return {
    stack,
    origin,
    publicBaseUrl,
    issuer: `${publicBaseUrl}/v1`,
    route: (prefix, target) => upstreams.push({ prefix, target }),
    close: async () => {
      await closeServer(server);
      await stack.close();
    },
  };
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
