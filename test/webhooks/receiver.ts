import { once } from 'node:events';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** The status this receiver answered. */
  answered: number;
}

/**
 * A tenant's webhook endpoint for the tests: records every request and answers with the next
 * status of its script (200 once the script is used up). Tests wait on arrivals, not on time.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private script: number[] = [];
  private waiters: { match: (hook: ReceivedWebhook) => boolean; resolve: (hook: ReceivedWebhook) => void }[] = [];
  private server: Server | undefined;
  /** Answers kept back while holding (a slow endpoint), and who waits for their number. */
  private held: (() => void)[] | null = null;
  private heldWaiters: { count: number; resolve: () => void }[] = [];
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const answer = () => {
          const answered = this.script.shift() ?? 200;
          const hook = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), answered };
          this.received.push(hook);
          response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered === 200 ? 'ok' : 'not now');
          for (const waiter of this.waiters.filter((w) => w.match(hook))) {
            this.waiters.splice(this.waiters.indexOf(waiter), 1);
            waiter.resolve(hook);
          }
        };
        if (!this.held) return answer();
        this.held.push(answer);
        for (const waiter of this.heldWaiters.filter((w) => w.count <= this.held!.length)) {
          this.heldWaiters.splice(this.heldWaiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** The next statuses to answer with, in order. */
  answerWith(...statuses: number[]): void {
    this.script.push(...statuses);
  }

  /** From now on requests stay open, unanswered, until `release()`: a slow endpoint. */
  hold(): void {
    this.held = [];
  }

  /** How many requests are open now (while holding). */
  get heldCount(): number {
    return this.held?.length ?? 0;
  }

  /** Resolves once `count` requests are held open. */
  holding(count: number): Promise<void> {
    if (this.heldCount >= count) return Promise.resolve();
    return new Promise((resolve) => this.heldWaiters.push({ count, resolve }));
  }

  /** Answers the held requests and stops holding. */
  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const answer of held) answer();
  }

  /** The first delivery (already received or still to come) that `match` accepts. */
  next(match: (hook: ReceivedWebhook) => boolean, timeoutMs = 20_000): Promise<ReceivedWebhook> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no such webhook arrived')), timeoutMs);
      this.waiters.push({ match, resolve: (hook) => (clearTimeout(timer), resolve(hook)) });
    });
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** What a delivery's body holds (the fields the tests read). */
export interface WebhookBody {
  type: string;
  timestamp: string;
  data: { user?: { id: string; email: string; organizationId: string }; marker?: string; [field: string]: unknown };
}

/** The delivery's parsed body. */
export const bodyOf = (hook: ReceivedWebhook) => JSON.parse(hook.body) as WebhookBody;
