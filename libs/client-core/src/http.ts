import { formEncode } from './encoding';
import { ProviderError, RateLimitedError, SesameError } from './errors';
import { abortController, FetchFunction, FetchInit, FetchResponse, sleep as timerSleep, startTimer } from './platform';
import { backoffDelay, RetryOptions, retryAfterSeconds } from './retry';

/** Longer than the longest request Sesame holds open (a login status waits up to 25 s). */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface HttpOptions {
  baseUrl: string;
  fetch: FetchFunction;
  retry: RetryOptions;
  /** Waits between retries (tests replace it). */
  sleep?: (ms: number) => Promise<void>;
  /** In [0, 1): spreads the retry delays (tests replace it). */
  random?: () => number;
  /** A request not answered within this time fails with SesameError `timeout` (default 30 s). */
  timeoutMs?: number;
  /** Passed to fetch where the platform honours it (Node: `manual`, so that a redirect is seen, not followed). */
  redirect?: FetchInit['redirect'];
}

export interface HttpAnswer {
  status: number;
  headers: FetchResponse['headers'];
  body: unknown;
}

type SendInit = { method: string; headers: Record<string, string>; body?: string };

/**
 * Sends requests to Sesame's auth API: JSON or form bodies, each try bounded by a timeout, 429s
 * retried with exponential backoff and jitter (waiting at least Retry-After), other errors turned
 * into typed errors.
 */
export class SesameHttp {
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly timeoutMs: number;

  constructor(private readonly options: HttpOptions) {
    this.sleep = options.sleep ?? timerSleep;
    this.random = options.random ?? Math.random;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** POST with a JSON body; resolves with the parsed 2xx answer. */
  postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
    return this.send(path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  /** POST with an application/x-www-form-urlencoded body. */
  postForm(path: string, form: Record<string, string | undefined>, headers: Record<string, string> = {}): Promise<HttpAnswer> {
    return this.send(path, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: formEncode(form),
    });
  }

  get(path: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
    return this.send(path, { method: 'GET', headers });
  }

  /** Sends, retrying 429s; resolves with any non-429 answer below 400 and throws for the rest. */
  async send(path: string, init: SendInit): Promise<HttpAnswer> {
    const answer = await this.sendRaw(path, init);
    if (answer.status >= 400) throw providerError(answer);
    return answer;
  }

  /** Like send(), but resolves with error answers (other than 429) too. */
  async sendRaw(path: string, init: SendInit): Promise<HttpAnswer> {
    const url = `${this.options.baseUrl}${path}`;
    const { retry } = this.options;
    for (let attempt = 0; ; attempt++) {
      const answer = await this.fetchOnce(url, init);
      if (answer.status !== 429) return answer;

      const retryAfter = retryAfterSeconds(answer.headers.get('retry-after'));
      const allowedDate = allowedDateOf(answer.body);
      // Direct authentication before the address's allowedDate: the user must wait, retrying now cannot help.
      if (allowedDate) throw new RateLimitedError(allowedDate, retryAfter);
      if (attempt >= retry.retries) throw new RateLimitedError(null, retryAfter);
      const wait = backoffDelay(attempt, retry, retryAfter, this.random);
      if (wait > retry.maxDelayMs) throw new RateLimitedError(null, retryAfter);
      await this.sleep(wait);
    }
  }

  private async fetchOnce(url: string, init: SendInit): Promise<HttpAnswer> {
    const controller = abortController();
    let timer: { cancel(): void } | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = startTimer(this.timeoutMs, () => {
        reject(new SesameError('timeout', `Sesame did not answer ${url} within ${this.timeoutMs} ms`));
        controller?.abort();
      });
    });
    try {
      const request: FetchInit = { ...init, headers: { accept: 'application/json', ...init.headers } };
      if (this.options.redirect) request.redirect = this.options.redirect;
      if (controller) request.signal = controller.signal;
      const response = await Promise.race([this.options.fetch(url, request), timedOut]);
      const text = await Promise.race([response.text(), timedOut]);
      return { status: response.status, headers: response.headers, body: parseJson(text) };
    } catch (error) {
      if (error instanceof SesameError) throw error;
      throw new SesameError(
        'unreachable',
        `Sesame could not be reached at ${url}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    } finally {
      timer?.cancel();
    }
  }
}

function allowedDateOf(body: unknown): Date | null {
  if (typeof body !== 'object' || body === null) return null;
  const value = (body as { allowedDate?: unknown }).allowedDate;
  if (typeof value !== 'string') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** An RFC 6749 error answer ({error, error_description}), or a problem details one ({code, detail}), as a ProviderError. */
export function providerError(answer: Pick<HttpAnswer, 'status' | 'body'>): ProviderError {
  const body = (typeof answer.body === 'object' && answer.body !== null ? answer.body : {}) as Record<string, unknown>;
  const error = typeof body.error === 'string' ? body.error : typeof body.code === 'string' ? body.code : `http_${answer.status}`;
  const description =
    typeof body.error_description === 'string' ? body.error_description : typeof body.detail === 'string' ? body.detail : null;
  return new ProviderError(error, description, answer.status);
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
