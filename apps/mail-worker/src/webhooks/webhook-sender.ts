import { Inject, Injectable } from '@nestjs/common';
import { guardedLookup, LookupFunction, SESAME_CONFIG, SesameConfig, webhookUrlProblem } from '@sesame/common';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** The first bytes of an answer that are kept, for the tenant to see what their endpoint said. */
const EXCERPT_BYTES = 1024;

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
export class WebhookSender {
  private readonly lookup: ReturnType<typeof guardedLookup>;

  constructor(
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
    @Inject(WEBHOOK_RESOLVER) resolver: LookupFunction | undefined,
  ) {
    this.lookup = guardedLookup(config.webhooks, resolver);
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
        agent: false,
      });
      const deadline = setTimeout(
        () => request.destroy(new Error(`no answer within ${this.config.webhooks.timeoutMs} ms`)),
        this.config.webhooks.timeoutMs,
      );
      request.on('timeout', () => request.destroy(new Error(`no answer within ${this.config.webhooks.timeoutMs} ms`)));
      request.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(deadline);
        resolve(finish({ status: null, excerpt: null, error: (error.code ? `${error.code}: ` : '') + error.message.slice(0, 400) }));
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let length = 0;
        const done = () => {
          clearTimeout(deadline);
          response.destroy();
          resolve(
            finish({
              status: response.statusCode ?? null,
              excerpt: Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_BYTES),
              error: null,
            }),
          );
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          length += chunk.length;
          if (length >= EXCERPT_BYTES) done();
        });
        response.on('end', done);
        response.on('error', done);
      });
      request.end(body);
    });
  }
}
