import { Agent, createServer, IncomingHttpHeaders, IncomingMessage, request, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { TLSSocket } from 'node:tls';
import { pipeline } from 'node:stream';

/**
 * The local stand-in for the nginx gateway of the compose setup: one public address that sends each
 * path prefix to the app that serves it. Plain node:http, so that it streams bodies both ways and
 * adds nothing the apps would not also get behind nginx.
 */
export interface GatewayRoute {
  /** Path prefix, matched on whole segments: `/api/v1` matches `/api/v1` and `/api/v1/x`, not `/api/v10`. */
  prefix: string;
  /** Origin of the upstream app, e.g. `http://127.0.0.1:3002`. */
  target: string;
  /** Replaces the matched prefix in the upstream path; without it the path is passed on unchanged. */
  rewrite?: string;
  /** Named in the 502 answer when the upstream is down. */
  name?: string;
}

export interface RunningGateway {
  server: Server;
  /** The port actually listened on (useful with port 0). */
  port: number;
  close(): Promise<void>;
}

/** Headers that describe one connection, not the message (RFC 9110 §7.6.1): never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export async function startGateway(routes: GatewayRoute[], port: number, host = '127.0.0.1'): Promise<RunningGateway> {
  // Longest prefix first, so a specific route wins over a general one whatever the order given.
  const ordered = [...routes].sort((a, b) => b.prefix.length - a.prefix.length);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => forward(ordered, agent, req, res));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections from browsers would otherwise hold close() open.
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

interface Match {
  route: GatewayRoute;
  upstreamPath: string;
}

export function matchRoute(routes: GatewayRoute[], url: string): Match | null {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const query = queryStart === -1 ? '' : url.slice(queryStart);
  for (const route of routes) {
    if (path === route.prefix || path.startsWith(`${route.prefix}/`)) {
      const rest = path.slice(route.prefix.length);
      return { route, upstreamPath: `${route.rewrite ?? route.prefix}${rest}${query}` };
    }
  }
  return null;
}

function forward(routes: GatewayRoute[], agent: Agent, req: IncomingMessage, res: ServerResponse): void {
  const match = matchRoute(routes, req.url ?? '/');
  if (!match) {
    sendProblem(res, 404, 'Not Found', 'not_found', `No route for ${req.url}`);
    return;
  }
  const target = new URL(match.route.target);
  const upstream = request({
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port,
    method: req.method,
    path: match.upstreamPath,
    headers: upstreamHeaders(req),
    agent,
  });

  upstream.on('response', (upstreamRes) => {
    res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, withoutHopByHop(upstreamRes.headers));
    // pipeline destroys the upstream response when the client goes away, and the other way round.
    pipeline(upstreamRes, res, () => undefined);
  });
  upstream.on('error', () => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const name = match.route.name ?? match.route.target;
    sendProblem(res, 502, 'Bad Gateway', 'upstream_unavailable', `${name} is not reachable; is it running?`);
  });
  // Streams the request body. Not through pipeline(): a failed upstream would destroy the client's
  // socket with it, and the 502 answer could no longer be sent.
  req.pipe(upstream);
  // A client that goes away before its answer is complete aborts the upstream request too.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
}

function upstreamHeaders(req: IncomingMessage): IncomingHttpHeaders {
  const headers = withoutHopByHop(req.headers);
  const encrypted = req.socket instanceof TLSSocket && req.socket.encrypted;
  // This gateway is the edge: it replaces, rather than appends to, any X-Forwarded-* the client sent,
  // so a client cannot choose the address that per-IP rate limits see.
  headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
  headers['x-forwarded-proto'] = encrypted ? 'https' : 'http';
  if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;
  else delete headers['x-forwarded-host'];
  return headers;
}

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  // Connection may name further headers that belong to this hop only.
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const result: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HOP_BY_HOP.has(name) && !named.includes(name)) result[name] = value;
  }
  return result;
}

/** RFC 9457 problem details, shaped like the apps' own errors. */
function sendProblem(res: ServerResponse, status: number, title: string, code: string, detail: string): void {
  const body = JSON.stringify({ type: `urn:sesame:error:${code}`, title, status, detail, code });
  res.writeHead(status, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
