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
 * Sends requests to Sesame's auth API: JSON or form bodies, each try bounded by a timeout, other
 * errors turned into typed errors, and sent again with exponential backoff and jitter (never sooner
 * than Retry-After) when Sesame did nothing with them:
 * - 429 (a limit refused it before any work);
 * - 503 with Retry-After (Sesame's own "a dependency is away, nothing was done, ask again");
 * - a GET (which changes nothing) that never got an answer or got 502, 503 or 504 from a gateway,
 *   such as a status wait held by an instance that died.
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

  /** Sends, retrying what Sesame did nothing with; resolves with an answer below 400 and throws for the rest. */
  async send(path: string, init: SendInit): Promise<HttpAnswer> {
    const answer = await this.sendRaw(path, init);
    if (answer.status >= 400) throw providerError(answer);
    return answer;
  }

  /** Like send(), but resolves with error answers (other than 429) too. */
  async sendRaw(path: string, init: SendInit): Promise<HttpAnswer> {
    const url = `${this.options.baseUrl}${path}`;
    for (let attempt = 0; ; attempt++) {
      let answer: HttpAnswer;
      try {
        answer = await this.fetchOnce(url, init);
      } catch (error) {
        const wait = isUnanswered(error) && init.method === 'GET' ? this.retryDelay(attempt, null) : null;
        if (wait === null) throw error;
        await this.sleep(wait);
        continue;
      }
      const retryAfter = retryAfterSeconds(answer.headers.get('retry-after'));
      if (answer.status === 429) {
        const allowedDate = allowedDateOf(answer.body);
        // Direct authentication before the address's allowedDate: the user must wait, retrying now cannot help.
        if (allowedDate) throw new RateLimitedError(allowedDate, retryAfter);
        const wait = this.retryDelay(attempt, retryAfter);
        if (wait === null) throw new RateLimitedError(null, retryAfter);
        await this.sleep(wait);
        continue;
      }
      const wait = isUnavailable(answer, init.method, retryAfter) ? this.retryDelay(attempt, retryAfter) : null;
      if (wait === null) return answer;
      await this.sleep(wait);
    }
  }

  /** The wait before retry number `attempt + 1`, or null when the retries are used up or it would exceed maxDelayMs. */
  private retryDelay(attempt: number, retryAfter: number | null): number | null {
    const { retry } = this.options;
    if (attempt >= retry.retries) return null;
    const wait = backoffDelay(attempt, retry, retryAfter, this.random);
    return wait > retry.maxDelayMs ? null : wait;
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

/** A fetch that failed before any answer came: refused, reset, cut (not a timeout: Sesame may still be working on it). */
function isUnanswered(error: unknown): boolean {
  return error instanceof SesameError && error.code === 'unreachable';
}

/** Sesame's 503 with Retry-After promises nothing was done; a gateway's 502, 503 or 504 may follow work, so only a GET is sent again. */
function isUnavailable(answer: HttpAnswer, method: string, retryAfter: number | null): boolean {
  if (answer.status === 503 && retryAfter !== null) return true;
  return method === 'GET' && [502, 503, 504].includes(answer.status);
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
