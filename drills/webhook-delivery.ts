/**
 * Webhook delivery through a worker killed mid-delivery and a Redis restart: a tenant of the
 * drill's own with one endpoint (every event type) pointing at a receiver in this process, which
 * verifies every request with the Standard Webhooks library and holds each answer HOLD_MS (a slow
 * endpoint, so that deliveries are really in flight). Users of the tenant are blocked and unblocked
 * through the management API at RATE a second (each change writes `user.blocked` or
 * `user.unblocked` to the `webhook_event` outbox in its transaction); once the receiver holds
 * requests open, the mail worker (which dispatches and delivers webhooks) is killed with -9, Redis
 * is shut down for DOWN_MS and started again from its append-only file, and a new worker is started.
 * Every event the tenant's endpoint was due (counted in Postgres) must then reach the receiver,
 * signed, and be answered 2xx at least once; a second arrival of one event (same `webhook-id`) is
 * at-least-once delivery, reported as resent, not failed.
 */
import { EventEmitter, once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { RunningServer } from '../bench/context';
import { log } from '../bench/settings';
import { DrillResult, emptyResult, failures } from './result';
import { Apps, DrillStack, stopAll } from './stack';

/** What the drill's apps run with: dispatch 5 times a second, http to the loopback receiver, short retries. */
export const WEBHOOK_DRILL_ENV: NodeJS.ProcessEnv = {
  WEBHOOK_DISPATCH_INTERVAL_MS: '200',
  WEBHOOK_ALLOW_HTTP_LOOPBACK: 'on',
  WEBHOOK_RETRY_DELAYS_MS: '1000,1000,2000',
};

/** Changes (each one event) a second, over USERS users. */
const RATE = 10;
const USERS = 20;
/** How long the receiver holds each answer. */
const HOLD_MS = 300;
/** The worker is killed once this many events were delivered and the receiver holds requests open. */
const DELIVERED_BEFORE_KILL = 20;
const OPEN_AT_KILL = 2;
/** How long Redis stays down. */
const DOWN_MS = 3000;
/** Changes go on this long after the new worker is up. */
const PRODUCE_AFTER_MS = 3000;
/**
 * Every event must have arrived, and then every delivery of the endpoint have finished (none left
 * to send again), within this long of the drill's start: run.ts stops a drill at 180 s, and this
 * leaves the time to stop the apps and report.
 */
const DRILL_BUDGET_MS = 160_000;
/** An arrival this late after its event is counted as late in the drill's log. */
const LATE_MS = 30_000;
const REQUEST_TIMEOUT_MS = 15_000;

interface Arrival {
  /** When the event happened (the body's `timestamp`). */
  eventAt: number;
  /** Verified arrivals answered 2xx (the connection still open when the answer was written). */
  answered: number[];
  /** Verified arrivals whose sender was gone before the answer (the killed worker's). */
  cut: number;
}

/**
 * The tenant's endpoint: verifies each request with `standardwebhooks` (a bad signature is
 * answered 400 and counted), holds the answer HOLD_MS, then answers 200 and records the arrival by
 * `webhook-id`. Waits are on its arrivals (`until`), never on time.
 */
class SlowReceiver {
  readonly arrivals = new Map<string, Arrival>();
  invalid = 0;
  open = 0;
  url = '';
  private readonly changed = new EventEmitter();
  private server: Server | undefined;
  private verifier: Webhook | undefined;

  constructor() {
    this.changed.setMaxListeners(100);
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => this.handle(request, response));
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/sesame-webhooks`;
  }

  /** The endpoint's secret (`whsec_…`), known once the endpoint is made. */
  verifyWith(secret: string): void {
    this.verifier = new Webhook(secret);
  }

  get delivered(): number {
    return [...this.arrivals.values()].filter((arrival) => arrival.answered.length > 0).length;
  }

  /** Resolves true once `condition` holds (checked on every arrival and every change of open requests), false after `timeoutMs`. */
  until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
    if (condition()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = () => {
        if (!condition()) return;
        finish(true);
      };
      const finish = (held: boolean) => {
        clearTimeout(timer);
        this.changed.off('change', check);
        resolve(held);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      this.changed.on('change', check);
    });
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    this.open += 1;
    this.changed.emit('change');
    response.on('close', () => {
      this.open -= 1;
      this.changed.emit('change');
    });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      };
      let event: { timestamp: string };
      try {
        event = this.verifier!.verify(body, headers) as { timestamp: string };
      } catch {
        this.invalid += 1;
        response.writeHead(400).end('bad signature');
        return;
      }
      const id = headers['webhook-id'];
      const arrival = this.arrivals.get(id) ?? { eventAt: Date.parse(event.timestamp), answered: [], cut: 0 };
      this.arrivals.set(id, arrival);
      // Answered: the 200 written out while the sender was still there; cut: the sender gone first.
      response.on('finish', () => {
        arrival.answered.push(Date.now());
        this.changed.emit('change');
      });
      response.on('close', () => {
        if (response.writableFinished) return;
        arrival.cut += 1;
        this.changed.emit('change');
      });
      setTimeout(() => {
        if (!response.destroyed) response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      }, HOLD_MS);
    });
  }
}

/** A tenant of the drill's own (pro), an organization, USERS users and the endpoint at `receiver`. */
async function setUpTenant(stack: DrillStack, managementUrl: string, receiver: SlowReceiver) {
  const call = async (path: string, key: string, body: unknown) => {
    const response = await fetch(`${managementUrl}/api${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const tenant = await call('/v2/tenant', stack.ctx.platformKey, { name: 'Webhook delivery drill', plan: 'pro' });
  const key = (tenant.apiKey as { key: string }).key;
  const tenantId = (tenant.tenant as { id: string }).id;
  const organization = await call('/v2/organization', key, { name: 'Webhook drill organization' });
  const organizationId = organization.id as string;
  const endpoint = await call('/v2/tenant/webhook_endpoint', key, { url: receiver.url, description: 'webhook-delivery drill' });
  receiver.verifyWith(endpoint.secret as string);
  const users: string[] = [];
  for (let i = 0; i < USERS; i++) {
    users.push((await call(`/v2/organization/${organizationId}/user`, key, { email: stack.address('webhook') })).id as string);
  }
  return { tenantId, key, organizationId, endpointId: endpoint.id as string, users };
}

/**
 * Blocks and unblocks the users in turn, RATE changes a second at fixed times, until `stop()`;
 * a user whose last change has no answer yet is skipped. `done` resolves once every change has its answer.
 */
class Changes {
  readonly statuses: { status: string; retryAfter: string | null }[] = [];
  private stopped = false;
  private readonly pending: Promise<void>[] = [];
  private readonly blocked = new Map<string, boolean>();
  private readonly busy = new Set<string>();
  readonly done: Promise<void>;

  constructor(
    private readonly managementUrl: () => string,
    private readonly tenant: { key: string; organizationId: string; users: string[] },
  ) {
    this.done = this.run();
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.done;
  }

  private async run(): Promise<void> {
    const started = Date.now();
    for (let i = 0; !this.stopped; i++) {
      const wait = started + (i * 1000) / RATE - Date.now();
      if (wait > 0) await sleep(wait);
      const user = this.tenant.users[i % this.tenant.users.length];
      if (this.busy.has(user)) continue;
      this.pending.push(this.change(user));
    }
    await Promise.all(this.pending);
  }

  private async change(user: string): Promise<void> {
    this.busy.add(user);
    const blocked = !this.blocked.get(user);
    try {
      const response = await fetch(`${this.managementUrl()}/api/v2/organization/${this.tenant.organizationId}/user/${user}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.tenant.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ blocked }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const answer = (await response.json().catch(() => null)) as { blocked?: boolean } | null;
      if (response.status === 200 && typeof answer?.blocked === 'boolean') this.blocked.set(user, answer.blocked);
      this.statuses.push({ status: String(response.status), retryAfter: response.headers.get('retry-after') });
    } catch (error) {
      this.statuses.push({ status: (error as Error).name === 'TimeoutError' ? 'timeout' : 'error', retryAfter: null });
    } finally {
      this.busy.delete(user);
    }
  }
}

export async function webhookDelivery(stack: DrillStack): Promise<DrillResult> {
  const result = emptyResult('webhook-delivery');
  const deadline = Date.now() + DRILL_BUDGET_MS;
  const receiver = new SlowReceiver();
  await receiver.start();
  const apps = await stack.startApps(WEBHOOK_DRILL_ENV);
  const killed: RunningServer = apps.worker;
  let changes: Changes | undefined;
  try {
    const tenant = await setUpTenant(stack, apps.management.url, receiver);
    changes = new Changes(() => apps.management.url, tenant);

    // The kill: deliveries flowing, and requests of the worker held open at the receiver.
    const flowing = await receiver.until(() => receiver.delivered >= DELIVERED_BEFORE_KILL && receiver.open >= OPEN_AT_KILL, 60_000);
    if (!flowing) throw new Error(`no ${DELIVERED_BEFORE_KILL} deliveries with ${OPEN_AT_KILL} open within 60 s`);
    const openAtKill = receiver.open;
    const exited = once(killed.process.process, 'exit');
    killed.process.process.kill('SIGKILL');
    await exited;
    const killedAt = Date.now();
    await stack.redis.stop();
    await sleep(DOWN_MS);
    await stack.redis.restart();
    apps.worker = await stack.startApp('mail-worker', apps.prefix, WEBHOOK_DRILL_ENV);
    const back = Date.now();
    log(`webhook-delivery: worker killed with ${openAtKill} requests open at the receiver; new worker up ${back - killedAt} ms later`);

    await sleep(PRODUCE_AFTER_MS);
    await changes.stop();
    for (const { status, retryAfter } of changes.statuses) {
      if (status === '200') {
        result.accepted += 1;
        continue;
      }
      result.refused[status] = (result.refused[status] ?? 0) + 1;
      // A 503 with Retry-After while Redis is away is the expected refusal; any other 5xx is not.
      if (status.startsWith('5') && !(status === '503' && retryAfter)) result.unexpected5xx += 1;
      if (status === 'timeout' || status === 'error') result.problems.push(`a change without an answer (${status})`);
    }

    // Every event the endpoint was due, from Postgres: the tenant's, from the endpoint's creation on (the dispatcher's own rule).
    const events = await stack.sql<{ id: string }>(
      `SELECT e.id FROM webhook_event e JOIN webhook_endpoint w ON w.id = $2
        WHERE e.tenant_id = $1 AND e.created_at >= w.created_at`,
      [tenant.tenantId, tenant.endpointId],
    );
    const ids = events.map((event) => event.id);
    const isDelivered = (id: string) => (receiver.arrivals.get(id)?.answered.length ?? 0) > 0;
    await receiver.until(() => ids.every(isDelivered), deadline - Date.now());
    // Recovery: from the new worker up to the first event written since then delivered.
    const recoveredAt = firstFresh(receiver, back);
    result.recoveryMs = recoveredAt === null ? null : recoveredAt - back;
    if (recoveredAt === null) result.problems.push('no event written after the new worker started was delivered');

    const deliveredIds = ids.filter(isDelivered);
    result.delivered = deliveredIds.length;
    result.lost = ids.length - deliveredIds.length;
    const delays = deliveredIds.map((id) => receiver.arrivals.get(id)!.answered[0] - receiver.arrivals.get(id)!.eventAt);
    result.worstDelayMs = delays.length ? Math.max(...delays) : null;
    const unknown = [...receiver.arrivals.keys()].filter((id) => !ids.includes(id));
    if (unknown.length) result.problems.push(`${unknown.length} deliveries of events not in webhook_event`);
    if (receiver.invalid) result.problems.push(`${receiver.invalid} deliveries with a signature that did not verify`);
    if (ids.length === 0) result.problems.push('no event was written');

    // Once every delivery has finished, nothing more can arrive: the repeats are final.
    const settled = await settle(stack, tenant.endpointId, deadline);
    if (result.lost === 0 && !settled.done) result.problems.push(`${settled.left} deliveries still pending at the drill's end`);
    const arrivals = [...receiver.arrivals.values()];
    const cut = arrivals.reduce((sum, arrival) => sum + arrival.cut, 0);
    // The webhook-id is the event's: a second arrival is the same message again (at least once), not a second message.
    result.duplicates = 0;
    result.resent = arrivals.reduce((sum, arrival) => sum + arrival.answered.length + arrival.cut, 0) - arrivals.length;
    const late = delays.filter((delay) => delay >= LATE_MS).length;
    log(
      `webhook-delivery: ${ids.length} events in webhook_event, ${result.delivered} delivered (${late} over ${LATE_MS / 1000} s after their event), ` +
        `${result.lost} lost, ${result.resent} arrivals again (${cut} cut by the kill), ${settled.failed} deliveries failed`,
    );
    if (settled.failed) result.problems.push(`${settled.failed} deliveries ended failed`);
  } finally {
    await changes?.stop();
    await stopAll(apps, killed);
    await receiver.stop();
    if (failures(result).length) keepLogs(result.name, { ...apps, killed });
  }
  return result;
}

/** When the first event written since `since` was answered. */
function firstFresh(receiver: SlowReceiver, since: number): number | null {
  const times = [...receiver.arrivals.values()]
    .filter((arrival) => arrival.eventAt >= since)
    .flatMap((arrival) => arrival.answered.slice(0, 1));
  return times.length ? Math.min(...times) : null;
}

/** Waits (polling Postgres) until none of the endpoint's deliveries is pending. */
async function settle(stack: DrillStack, endpointId: string, until: number): Promise<{ done: boolean; left: number; failed: number }> {
  for (;;) {
    const [row] = await stack.sql<{ pending: number; failed: number }>(
      `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*) FILTER (WHERE status = 'failed')::int AS failed
         FROM webhook_delivery WHERE endpoint_id = $1`,
      [endpointId],
    );
    if (row.pending === 0 || Date.now() > until) return { done: row.pending === 0, left: row.pending, failed: row.failed };
    await sleep(250);
  }
}

/** The end of each app's output, the killed worker's too, kept where a failed drill's cause can be read. */
function keepLogs(name: string, apps: Apps & { killed: RunningServer }): void {
  const dir = mkdtempSync(join(tmpdir(), `sesame-drill-${name}-`));
  const servers = {
    'management-api': apps.management,
    'auth-api': apps.auth,
    'mail-worker-killed': apps.killed,
    'mail-worker': apps.worker,
  };
  for (const [app, server] of Object.entries(servers)) writeFileSync(join(dir, `${app}.log`), server.process.output());
  log(`drill ${name} failed: the apps' logs are in ${dir}`);
}
