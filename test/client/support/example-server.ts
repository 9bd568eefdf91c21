import { createServer, IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { createExampleApp, ExampleConfig } from '../../../examples/express-app/src/app';

/**
 * The example app (examples/express-app) on a random port of 127.0.0.1, as the browser tests use
 * it. The server listens first, so that its origin can go into the organization's whitelist, and
 * the app is attached once the application's credentials exist.
 */
export class ExampleServer {
  private handler: RequestListener | null = null;
  private readonly server: Server;

  constructor(
    /** The host name the browser uses: `localhost` or `127.0.0.1` (both reach the 127.0.0.1 listener). */
    private readonly hostName: 'localhost' | '127.0.0.1',
  ) {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (!this.handler) {
        res.writeHead(503).end('Not configured yet');
        return;
      }
      this.handler(req, res);
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    return this;
  }

  /** e.g. http://localhost:41234 */
  get origin(): string {
    return `http://${this.hostName}:${(this.server.address() as AddressInfo).port}`;
  }

  start(config: ExampleConfig): void {
    this.handler = createExampleApp(config) as unknown as RequestListener;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
