import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { guardedLookup, LookupFunction, SESAME_CONFIG, SesameConfig, webhookUrlProblem } from '@sesame/common';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** The first bytes of an answer that are kept, for the tenant to see what their endpoint said. */
const EXCERPT_BYTES = 1024;
/** Postgres text holds no NUL, and the log shows no control characters: an answer's bytes are kept printable. */
const UNPRINTABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const printable = (text: string) => text.replace(UNPRINTABLE, '\ufffd');

/**
 * How long a connection to a receiver is kept open, idle, for the next delivery: less than the 5 s
 * that common servers (Node's, nginx's) keep one, so that Sesame closes it first and a delivery is
 * not written into a connection the receiver is closing.
 */
const IDLE_CONNECTION_MS = 4000;

export interface SendResult {
  status: number | null;
  excerpt: string | null;
  error: string | null;
  durationMs: number;
}

/** The resolver the sender connects with (the system's; a test's in unit tests). */
export const WEBHOOK_RESOLVER = Symbol('WEBHOOK_RESOLVER');

/**
 * POSTs one delivery: to an allowed URL and address only (the URL checked again, and every
 * address its host resolves to checked at connect time), no redirect followed (a 3xx is an answer like any other), WEBHOOK_TIMEOUT_MS for all of
 * it, and at most EXCERPT_BYTES of the answer read before the connection is dropped.
 */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly lookup: ReturnType<typeof guardedLookup>;
  // Connections are kept for the next delivery (most go to few receivers): a TCP and TLS handshake
  // per delivery cost more than the delivery. Each was checked at connect time, by `lookup`.
  private readonly agents = {
    'http:': new HttpAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
    'https:': new HttpsAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  };

  constructor(
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
    @Inject(WEBHOOK_RESOLVER) resolver: LookupFunction | undefined,
  ) {
    this.lookup = guardedLookup(config.webhooks, resolver);
  }

  onApplicationShutdown(): void {
    for (const agent of Object.values(this.agents)) agent.destroy();
  }

  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = Date.now();
    const finish = (result: Omit<SendResult, 'durationMs'>): SendResult => ({ ...result, durationMs: Date.now() - started });
    // Checked again here: an address literal skips the lookup, and the rules may have tightened since the URL was saved.
    const refused = webhookUrlProblem(url, this.config.webhooks);
    if (refused) return Promise.resolve(finish({ status: null, excerpt: null, error: `not sent: ${refused}` }));
    return new Promise((resolve) => {
      const target = new URL(url);
      const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Sesame-Webhooks/1',
        },
        lookup: this.lookup as never,
        timeout: this.config.webhooks.timeoutMs,
        agent: this.agents[target.protocol as 'http:' | 'https:'],
      });
      const deadline = setTimeout(
        () => request.destroy(new Error(`no answer within ${this.config.webhooks.timeoutMs} ms`)),
        this.config.webhooks.timeoutMs,
      );
      request.on('timeout', () => request.destroy(new Error(`no answer within ${this.config.webhooks.timeoutMs} ms`)));
      request.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(deadline);
        resolve(
          finish({ status: null, excerpt: null, error: printable((error.code ? `${error.code}: ` : '') + error.message.slice(0, 400)) }),
        );
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let length = 0;
        const done = (whole: boolean) => {
          clearTimeout(deadline);
          // An answer read to its end leaves the connection for the next delivery; one cut short closes it.
          if (!whole) response.destroy();
          resolve(
            finish({
              status: response.statusCode ?? null,
              excerpt: printable(Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_BYTES)),
              error: null,
            }),
          );
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          length += chunk.length;
          if (length >= EXCERPT_BYTES) done(false);
        });
        response.on('end', () => done(true));
        response.on('error', () => done(false));
      });
      request.end(body);
    });
  }
}
