/**
 * Scenario 4: POST /v1/authenticate_direct to the login e-mail arriving at an SMTP server.
 * auth-api and mail-worker run as separate processes (pinned to the server CPU), the SMTP sink
 * (the `smtp-server` package) runs in this process, so the request's start and the mail's
 * arrival are read from one clock. Requests go out at a modest, fixed rate, each to a distinct
 * address (allowedDate throttles per address); mail not received within the grace time is lost.
 */
import { performance } from 'node:perf_hooks';
import { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { BenchContext, RunningServer } from './context';
import { basicAuthorization, REDIRECT_URI } from './fixture';
import { log } from './settings';

export interface MailResult {
  requests: number;
  accepted: number;
  statusCodes: Record<string, number>;
  delivered: number;
  lost: number;
  /** Requests per second actually sent (the first to the last). */
  rate: number;
  httpMs: Percentiles;
  deliveryMs: Percentiles;
  /** From the login_attempt rows: attempt recorded → job queued, and job queued → mail sent (SMTP done). */
  stagesMs: { queued: Percentiles; sent: Percentiles };
  /** The part of each delivery spent waiting for the sink's greeting (smtp-server's fixed 100 ms per new connection; 0 on a reused one). */
  sinkGreetingMs: Percentiles;
}

export interface Percentiles {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

const WARMUP_MAILS = 5;

/**
 * The SMTP sink. smtp-server waits a fixed 100 ms after accepting a connection before it greets
 * ("early talker" detection), so each new SMTP connection pays that wait in the sink. The wait
 * (accept → greeting) is recorded per connection, and the part of it that falls within a
 * message's own request → arrival time is reported for that message (a message sent on a
 * connection opened earlier, a pooled one, waited for none of it).
 */
class Sink {
  private readonly arrivals = new Map<string, number>();
  /** Per address: the accept → greeting interval of the connection its mail came on, if it was that connection's first mail. */
  private readonly greetingWaits = new Map<string, { from: number; to: number } | null>();
  private readonly waiters = new Map<string, (at: number) => void>();
  private readonly accepted = new Map<number, number>();
  private readonly greeted = new Map<string, { from: number; to: number; used: boolean }>();
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // No reverse DNS lookup of the client: the sink must not add more of its own delay.
    disableReverseLookup: true,
    logger: false,
    onConnect: (session, callback) => {
      const acceptedAt = this.accepted.get(session.remotePort);
      this.accepted.delete(session.remotePort);
      if (acceptedAt !== undefined) this.greeted.set(session.id, { from: acceptedAt, to: performance.now(), used: false });
      callback();
    },
    onData: (stream, session, callback) => {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        const at = performance.now();
        const connection = this.greeted.get(session.id);
        const wait = connection && !connection.used ? { from: connection.from, to: connection.to } : null;
        if (connection) connection.used = true;
        for (const recipient of session.envelope.rcptTo) {
          const address = recipient.address.toLowerCase();
          this.greetingWaits.set(address, wait);
          this.arrived(address, at);
        }
        callback();
      });
    },
    onClose: (session) => {
      this.greeted.delete(session.id);
    },
  });

  constructor() {
    this.server.server.on('connection', (socket: Socket) => this.accepted.set(socket.remotePort ?? 0, performance.now()));
  }

  /** How much of [sent, arrived] the mail to this address spent waiting for the sink's greeting. */
  greetingWait(address: string, sent: number, arrived: number): number {
    const wait = this.greetingWaits.get(address);
    return wait ? Math.max(0, Math.min(wait.to, arrived) - Math.max(wait.from, sent)) : 0;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** When the mail to `address` arrived (now or later), or null after `timeoutMs`. */
  arrival(address: string, timeoutMs: number): Promise<number | null> {
    const known = this.arrivals.get(address);
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(address);
        resolve(null);
      }, timeoutMs);
      this.waiters.set(address, (at) => {
        clearTimeout(timer);
        resolve(at);
      });
    });
  }

  private arrived(address: string, at: number): void {
    if (!this.arrivals.has(address)) this.arrivals.set(address, at);
    const waiter = this.waiters.get(address);
    this.waiters.delete(address);
    waiter?.(at);
  }
}

export function percentiles(values: number[]): Percentiles {
  if (values.length === 0) return { mean: NaN, p50: NaN, p90: NaN, p99: NaN, max: NaN };
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  return {
    mean: sorted.reduce((sum, v) => sum + v, 0) / sorted.length,
    p50: rank(50),
    p90: rank(90),
    p99: rank(99),
    max: sorted[sorted.length - 1],
  };
}

export async function runMailScenario(ctx: BenchContext): Promise<MailResult> {
  const s = ctx.settings;
  const sink = new Sink();
  const smtpUrl = await sink.start();
  const prefix = ctx.nextRedisPrefix();
  const env = { SMTP_URL: smtpUrl };
  const servers: RunningServer[] = [];
  log(
    `mail: ${s.mail.count} login-link requests at ${s.mail.rate}/s, auth-api and mail-worker (Express) → SMTP sink, ${s.mail.graceSeconds} s grace`,
  );
  try {
    servers.push(await ctx.startSesame('mail-worker', 'express', { redisPrefix: prefix, env }));
    const auth = await ctx.startSesame('auth-api', 'express', { redisPrefix: prefix, env });
    servers.push(auth);
    const headers = { authorization: basicAuthorization(ctx.seed.clientId, ctx.seed.clientSecret), 'content-type': 'application/json' };
    const run = `${ctx.id.replace(/_/g, '-')}`;

    const send = async (email: string) => {
      const sent = performance.now();
      const response = await fetch(`${auth.url}/api/v1/authenticate_direct`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email, redirect_uri: REDIRECT_URI, state: `bench-${email}` }),
      });
      const answered = performance.now();
      const body = await response.text();
      return { status: response.status, sent, httpMs: answered - sent, body };
    };

    // Warm-up: a few mails, not measured (JIT, connections, the first queue round trip).
    for (let i = 0; i < WARMUP_MAILS; i++) {
      const email = `warmup-${i}-${run}@bench.example`;
      const answer = await send(email);
      if (answer.status !== 200) throw new Error(`authenticate_direct answered ${answer.status}: ${answer.body}`);
      if ((await sink.arrival(email, s.mail.graceSeconds * 1000)) === null) throw new Error(`the warm-up mail to ${email} never arrived`);
    }

    const started = performance.now();
    const pending: Promise<{ status: number; httpMs: number; deliveryMs: number | null; greetingMs?: number }>[] = [];
    for (let i = 0; i < s.mail.count; i++) {
      const due = started + (i * 1000) / s.mail.rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const email = `mail-${i}-${run}@bench.example`;
      pending.push(
        send(email).then(async (answer) => {
          if (answer.status !== 200) return { status: answer.status, httpMs: answer.httpMs, deliveryMs: null };
          const at = await sink.arrival(email, s.mail.graceSeconds * 1000 + s.mail.count * (1000 / s.mail.rate));
          return {
            status: answer.status,
            httpMs: answer.httpMs,
            deliveryMs: at === null ? null : at - answer.sent,
            greetingMs: at === null ? undefined : sink.greetingWait(email, answer.sent, at),
          };
        }),
      );
    }
    const sendingSeconds = (performance.now() - started) / 1000;
    const outcomes = await Promise.all(pending);
    const statusCodes: Record<string, number> = {};
    for (const outcome of outcomes) statusCodes[outcome.status] = (statusCodes[outcome.status] ?? 0) + 1;
    const accepted = outcomes.filter((outcome) => outcome.status === 200);
    const delivered = accepted.filter((outcome) => outcome.deliveryMs !== null);
    const stages = await ctx.data.query<{ queued_ms: number; sent_ms: number }>(
      `SELECT EXTRACT(EPOCH FROM (mail_queued_at - created_at)) * 1000 AS queued_ms, EXTRACT(EPOCH FROM (mail_sent_at - mail_queued_at)) * 1000 AS sent_ms
         FROM login_attempt WHERE email LIKE $1 AND mail_sent_at IS NOT NULL`,
      [`mail-%-${run}@bench.example`],
    );
    const result: MailResult = {
      requests: outcomes.length,
      accepted: accepted.length,
      statusCodes,
      delivered: delivered.length,
      lost: accepted.length - delivered.length,
      rate: s.mail.count > 1 ? (s.mail.count - 1) / Math.max(sendingSeconds, 1e-9) : s.mail.count,
      httpMs: percentiles(outcomes.map((outcome) => outcome.httpMs)),
      deliveryMs: percentiles(delivered.map((outcome) => outcome.deliveryMs!)),
      sinkGreetingMs: percentiles(delivered.map((outcome) => outcome.greetingMs ?? 0)),
      stagesMs: {
        queued: percentiles(stages.map((row) => Number(row.queued_ms))),
        sent: percentiles(stages.map((row) => Number(row.sent_ms))),
      },
    };
    log(
      `mail: ${result.delivered}/${result.requests} delivered (${result.lost} lost, statuses ${JSON.stringify(statusCodes)}); ` +
        `request→delivery p50 ${result.deliveryMs.p50.toFixed(1)} ms, p99 ${result.deliveryMs.p99.toFixed(1)} ms, max ${result.deliveryMs.max.toFixed(1)} ms; ` +
        `HTTP p50 ${result.httpMs.p50.toFixed(1)} ms, p99 ${result.httpMs.p99.toFixed(1)} ms; ` +
        `sink greeting wait p50 ${result.sinkGreetingMs.p50.toFixed(1)} ms; attempt recorded → queued p50 ${result.stagesMs.queued.p50.toFixed(1)} ms, queued → sent p50 ${result.stagesMs.sent.p50.toFixed(1)} ms, p99 ${result.stagesMs.sent.p99.toFixed(1)} ms`,
    );
    return result;
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await sink.stop();
  }
}
