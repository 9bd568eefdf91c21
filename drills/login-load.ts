/**
 * Login requests under load (POST /v1/authenticate_direct, each to a distinct address) and what
 * became of them: answered, accepted, delivered once, twice or never, how late; and the recovery
 * probe that tells when a login works end to end again.
 */
import { DEFAULT_RETRY, FetchFunction, RateLimitedError, RetryOptions, SesameError, SesameHttp } from '@sesame/client-core';
import { basicAuthorization, REDIRECT_URI } from '../bench/fixture';
import { ReceivedMail } from '../test/support/smtp-sink';
import { DrillResult } from './result';
import { DrillStack } from './stack';

/** No request waits longer than this for its answer. */
const REQUEST_TIMEOUT_MS = 15_000;
/** Every accepted e-mail arrives within this long of the drill's end, or it is lost. */
const DELIVERY_TIMEOUT_MS = 60_000;
/** The probe gives up this long after the dependency returned. */
const PROBE_TIMEOUT_MS = 60_000;

export interface Outcome {
  email: string;
  /** HTTP status, or "timeout" / "error" when no answer came. */
  status: string;
  sentAt: number;
  answeredAt: number;
  /** The attempt's id, when accepted. */
  loginAttemptId?: string;
  /** A 503's Retry-After header. */
  retryAfter?: string | null;
}

/** How a load's client retries: not at all (every refusal counts), or as the client libraries do by default (a 503 with Retry-After is asked again after it). */
export type Retries = 'off' | 'as-the-client-libraries';
const RETRY_OPTIONS: Record<Retries, RetryOptions> = { off: { ...DEFAULT_RETRY, retries: 0 }, 'as-the-client-libraries': DEFAULT_RETRY };

export class LoginLoad {
  readonly outcomes: Outcome[] = [];
  private readonly pending: Promise<void>[] = [];

  constructor(
    private readonly stack: DrillStack,
    private readonly drill: string,
    private readonly authUrl: () => string,
    private readonly retries: Retries = 'off',
  ) {}

  /** Sends `rate` requests a second for `seconds`, at fixed times; resolves when every one has its answer. */
  async run(seconds: number, rate = 20): Promise<void> {
    let i = 0;
    await this.runUntil(() => i++ >= seconds * rate, rate);
  }

  /** Sends `rate` requests a second, at fixed times, until `done()` says so; resolves when every one has its answer. */
  async runUntil(done: () => boolean, rate = 20): Promise<void> {
    const started = Date.now();
    for (let i = 0; !done(); i++) {
      const wait = started + (i * 1000) / rate - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      this.pending.push(this.sendOne());
    }
    await Promise.all(this.pending);
  }

  accepted(): Outcome[] {
    return this.outcomes.filter((outcome) => outcome.status === '200');
  }

  private async sendOne(): Promise<void> {
    const email = this.stack.address(this.drill);
    const sentAt = Date.now();
    const answer = await startLogin(this.stack, this.authUrl(), email, RETRY_OPTIONS[this.retries]);
    this.outcomes.push({ email, sentAt, answeredAt: Date.now(), ...answer });
  }
}

/** One login request; its status as text. */
export async function login(stack: DrillStack, authUrl: string, email: string): Promise<string> {
  return (await startLogin(stack, authUrl, email)).status;
}

/** Node's fetch as the client libraries take it. */
export const nodeFetch: FetchFunction = (url, init) => fetch(url, init as RequestInit);

interface LoginAnswer {
  status: string;
  retryAfter: string | null;
  loginAttemptId?: string;
}

/** A login through the client libraries' HTTP layer: the answer after its retries, if any. */
async function startLogin(stack: DrillStack, authUrl: string, email: string, retry = RETRY_OPTIONS.off): Promise<LoginAnswer> {
  const seed = stack.ctx.seed;
  const http = new SesameHttp({ baseUrl: `${authUrl}/api`, fetch: nodeFetch, retry, timeoutMs: REQUEST_TIMEOUT_MS });
  try {
    const answer = await http.sendRaw('/v1/authenticate_direct', {
      method: 'POST',
      headers: { authorization: basicAuthorization(seed.clientId, seed.clientSecret), 'content-type': 'application/json' },
      body: JSON.stringify({ email, redirect_uri: REDIRECT_URI, state: 'drill' }),
    });
    const body = answer.body as { loginAttemptId?: string } | null;
    return { status: String(answer.status), retryAfter: answer.headers.get('retry-after'), loginAttemptId: body?.loginAttemptId };
  } catch (error) {
    if (error instanceof RateLimitedError)
      return { status: '429', retryAfter: error.retryAfter === null ? null : String(error.retryAfter) };
    return { status: error instanceof SesameError && error.code === 'timeout' ? 'timeout' : 'error', retryAfter: null };
  }
}

/** Resolves with the first e-mail to `email` (its arrival time is `receivedAt`), or null after `timeoutMs`. */
export function arrival(stack: DrillStack, email: string, timeoutMs: number): Promise<ReceivedMail | null> {
  let timer: NodeJS.Timeout;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs)));
  return Promise.race([stack.smtp.next(email), late]).finally(() => clearTimeout(timer));
}

/**
 * Sends a fresh login every 200 ms until one is accepted, then waits for its e-mail: the time
 * from `since` (the dependency's return) to that e-mail's arrival, or null when it never came.
 */
export async function probeRecovery(stack: DrillStack, authUrl: string, since: number): Promise<number | null> {
  while (Date.now() - since < PROBE_TIMEOUT_MS) {
    const email = stack.address('probe');
    if ((await login(stack, authUrl, email)) === '200') {
      const mail = await arrival(stack, email, PROBE_TIMEOUT_MS - (Date.now() - since));
      return mail === null ? null : mail.receivedAt - since;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return null;
}

/** The mail queue's jobs still to run (waiting, active, delayed), from management-api's metrics. */
async function queueDepth(managementUrl: string): Promise<number> {
  const text = await (await fetch(`${managementUrl}/api/metrics`)).text();
  let depth = 0;
  for (const match of text.matchAll(/^sesame_queue_jobs\{([^}]*)\} (\S+)$/gm)) {
    if (/queue="mail"/.test(match[1]) && /state="(waiting|active|delayed)"/.test(match[1])) depth += Number(match[2]);
  }
  return depth;
}

/** Resolves once the mail queue is empty (no job can send again), or throws after `timeoutMs`. */
export async function queueDrained(managementUrl: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while ((await queueDepth(managementUrl)) > 0) {
    if (Date.now() > until) throw new Error('the mail queue did not drain');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Fills a result from the load: statuses, and for the accepted requests the e-mails — each waited
 * for, then (once the queue is empty) any second copy counted. `expected` says which 5xx answers
 * the fault explains (a 503 while a dependency of auth-api was down); any other is a defect.
 */
export async function tally(
  stack: DrillStack,
  load: LoginLoad,
  result: DrillResult,
  managementUrl: string,
  expected: (outcome: Outcome) => boolean,
): Promise<void> {
  for (const outcome of load.outcomes) {
    if (outcome.status === '200') continue;
    result.refused[outcome.status] = (result.refused[outcome.status] ?? 0) + 1;
    if (outcome.status.startsWith('5') && !expected(outcome)) result.unexpected5xx += 1;
  }
  const without = load.outcomes.filter((outcome) => outcome.status === '503' && !outcome.retryAfter).length;
  if (without) result.problems.push(`${without} answers 503 without Retry-After`);
  const unanswered = load.outcomes.filter((outcome) => outcome.status === 'timeout' || outcome.status === 'error').length;
  if (unanswered) result.problems.push(`${unanswered} requests without an answer`);
  const accepted = load.accepted();
  result.accepted = accepted.length;
  const arrivals = await Promise.all(accepted.map((outcome) => arrival(stack, outcome.email, DELIVERY_TIMEOUT_MS)));
  const delays = accepted.flatMap((outcome, i) => (arrivals[i] === null ? [] : [arrivals[i]!.receivedAt - outcome.sentAt]));
  result.delivered = delays.length;
  result.lost = accepted.length - delays.length;
  result.worstDelayMs = delays.length ? Math.max(...delays) : null;
  await queueDrained(managementUrl);
  const first = new Map(accepted.map((outcome, i) => [outcome.email, arrivals[i]]));
  result.duplicates = 0;
  result.resent = 0;
  for (const outcome of load.outcomes) {
    const mails = [first.get(outcome.email), ...stack.smtp.pending(outcome.email)].filter((mail): mail is ReceivedMail => !!mail);
    const messages = new Set(mails.map((mail) => mail.parsed.messageId)).size;
    result.duplicates += Math.max(0, messages - 1);
    result.resent += mails.length - messages;
  }
}
