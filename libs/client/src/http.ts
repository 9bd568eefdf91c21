import { Buffer } from 'node:buffer';
import { setTimeout as delay } from 'node:timers/promises';
import { ProviderError, RateLimitedError, SesameError } from './errors';

/** The subset of the WHATWG fetch the client uses, so that tests can pass their own. */
export type FetchFunction = (url: string, init: { method: string; headers: Record<string, string>; body?: string; redirect?: 'manual' | 'follow' | 'error' }) => Promise<FetchResponse>;

export interface FetchResponse {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** How the client retries requests that Sesame answered with 429. */
export interface RetryOptions {
  /** Retries after the first try (default 3). 0 turns retrying off. */
  retries: number;
  /** Delay before the first retry, doubled for each further one (default 500 ms). */
  baseDelayMs: number;
  /** A longer wait (from the backoff or Retry-After) is not waited for: the RateLimitedError is thrown instead (default 10 s). */
  maxDelayMs: number;
  /** Spread each delay randomly over [delay/2, delay] so that many clients do not retry in step (default true). Never below Retry-After. */
  jitter: boolean;
}

export const DEFAULT_RETRY: RetryOptions = { retries: 3, baseDelayMs: 500, maxDelayMs: 10_000, jitter: true };

export interface HttpOptions {
  baseUrl: string;
  fetch: FetchFunction;
  retry: RetryOptions;
  /** Waits between retries (tests replace it). */
  sleep?: (ms: number) => Promise<void>;
}

export interface HttpAnswer {
  status: number;
  headers: FetchResponse['headers'];
  body: unknown;
}

/**
 * Sends requests to Sesame's auth API: JSON or form bodies, 429s retried with exponential backoff
 * (waiting at least Retry-After), other errors turned into typed errors.
 */
export class SesameHttp {
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: HttpOptions) {
    this.sleep = options.sleep ?? ((ms) => delay(ms));
  }

  /** POST with a JSON body; resolves with the parsed 2xx answer. */
  postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
    return this.send(path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  /** POST with an application/x-www-form-urlencoded body. */
  postForm(path: string, form: Record<string, string | undefined>, headers: Record<string, string> = {}): Promise<HttpAnswer> {
    const body = formEncode(form);
    return this.send(path, { method: 'POST', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body });
  }

  get(path: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
    return this.send(path, { method: 'GET', headers });
  }

  /** Sends, retrying 429s; resolves with any non-429 answer below 400 and throws for the rest. */
  async send(path: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<HttpAnswer> {
    const answer = await this.sendRaw(path, init);
    if (answer.status >= 400) throw providerError(answer);
    return answer;
  }

  /** Like send(), but resolves with error answers (other than 429) too. */
  async sendRaw(path: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<HttpAnswer> {
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
      const wait = backoffDelay(attempt, retry, retryAfter);
      if (wait > retry.maxDelayMs) throw new RateLimitedError(null, retryAfter);
      await this.sleep(wait);
    }
  }

  private async fetchOnce(url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<HttpAnswer> {
    let response: FetchResponse;
    let text: string;
    try {
      response = await this.options.fetch(url, { ...init, headers: { accept: 'application/json', ...init.headers }, redirect: 'manual' });
      text = await response.text();
    } catch (error) {
      throw new SesameError('unreachable', `Sesame could not be reached at ${url}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    return { status: response.status, headers: response.headers, body: parseJson(text) };
  }
}

/**
 * The wait before retry number `attempt + 1`: baseDelayMs · 2^attempt (with jitter, in
 * [half, whole]), and never less than the server's Retry-After.
 */
export function backoffDelay(attempt: number, retry: RetryOptions, retryAfterSeconds: number | null, random: () => number = Math.random): number {
  const exponential = retry.baseDelayMs * 2 ** attempt;
  const jittered = retry.jitter ? exponential / 2 + (random() * exponential) / 2 : exponential;
  return Math.round(Math.max(jittered, (retryAfterSeconds ?? 0) * 1000));
}

/** Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(header: string | null, now: number = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

function allowedDateOf(body: unknown): Date | null {
  if (typeof body !== 'object' || body === null) return null;
  const value = (body as { allowedDate?: unknown }).allowedDate;
  if (typeof value !== 'string') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** An RFC 6749 error answer ({error, error_description}), or a problem details one ({code, detail}), as a ProviderError. */
export function providerError(answer: HttpAnswer): ProviderError {
  const body = (typeof answer.body === 'object' && answer.body !== null ? answer.body : {}) as Record<string, unknown>;
  const error = typeof body.error === 'string' ? body.error : typeof body.code === 'string' ? body.code : `http_${answer.status}`;
  const description = typeof body.error_description === 'string' ? body.error_description : typeof body.detail === 'string' ? body.detail : null;
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

/** application/x-www-form-urlencoded, leaving out undefined values. */
export function formEncode(form: Record<string, string | undefined>): string {
  return Object.entries(form)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${formComponent(name)}=${formComponent(value)}`)
    .join('&');
}

function formComponent(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/** `Basic base64(urlencode(client_id):urlencode(client_secret))` (RFC 6749 §2.3.1). */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${formComponent(clientId)}:${formComponent(clientSecret)}`).toString('base64')}`;
}
