import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * What a desktop app does for RFC 8252 §7.3: a node:http listener on 127.0.0.1 on a port the
 * system picks, which takes the authorization response. `nextRequest()` resolves on the request
 * event itself, so tests wait for the redirect without sleeping or polling.
 */
export class LoopbackListener {
  readonly requests: URL[] = [];
  private waiters: ((url: URL) => void)[] = [];
  private readonly server: Server;

  constructor(private readonly path = '/callback') {
    this.server = createServer((request: IncomingMessage, response) => {
      const url = new URL(request.url ?? '/', `http://${request.headers.host ?? '127.0.0.1'}`);
      if (url.pathname !== this.path) {
        response.writeHead(404).end(); // e.g. a browser's /favicon.ico
        return;
      }
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      response.end(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signed in</title></head>' +
          '<body style="font:16px system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0">' +
          '<p>You are signed in. You can close this window and return to the app.</p></body></html>',
      );
      const waiter = this.waiters.shift();
      if (waiter) waiter(url);
      else this.requests.push(url);
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The redirect_uri to send: the registered loopback callback on this listener's port. */
  get redirectUri(): string {
    return `http://127.0.0.1:${this.port}${this.path}`;
  }

  /** The first request not yet taken, already received or still to come. */
  nextRequest(): Promise<URL> {
    const received = this.requests.shift();
    if (received) return Promise.resolve(received);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
