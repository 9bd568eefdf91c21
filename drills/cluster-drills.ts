/**
 * Drills at three instances (docs/reliability.md): three auth-api and three management-api
 * instances and two mail workers behind docker/nginx.conf, under login load through the gateway
 * and management reads beside it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { log } from '../bench/settings';
import { codeIn } from '../test/support/smtp-sink';
import { basicAuthorization, REDIRECT_URI } from '../bench/fixture';
import { DEFAULT_RETRY, FetchFunction, SesameHttp } from '@sesame/client-core';
import { Cluster, ClusterOptions, Instance } from './cluster';
import { LoginLoad, nodeFetch, probeRecovery, Retries, tally } from './login-load';
import { exactlyTheLimit, PLAN_LIMIT_ENV } from './plan-limit';
import { DrillResult, emptyResult, failures } from './result';
import { DrillStack } from './stack';

const THREE: ClusterOptions = { auth: 3, management: 3, workers: 2 };
/** Load before the fault, so that every instance holds connections and work when it comes. */
const WARM_UP_MS = 2000;
/** Management reads a second beside the logins. */
const READ_RATE = 10;
/**
 * The retries of a client that talks to one instance's address: enough for that instance to be
 * started again (backoff 0.5, 1, 2, 4, 8 s with jitter; the library's default 3 cover 3.5 s).
 */
const ONE_INSTANCE_RETRY = { ...DEFAULT_RETRY, retries: 5 };

/** Each app instance in turn stopped with SIGTERM and started again, under load: not one request may fail. */
export async function rollingRestart(stack: DrillStack): Promise<DrillResult> {
  return underClusterLoad(stack, 'rolling-restart', THREE, 'off', async (cluster, result) => {
    for (const instance of cluster.instances) {
      const exit = await cluster.restart(instance, 'SIGTERM');
      if (exit.code !== 0) result.problems.push(`${instance.app} on ${instance.port} exited with ${exit.code ?? exit.signal} on SIGTERM`);
    }
    return { allowedFailures: () => false };
  });
}

/**
 * One auth-api instance killed with -9 under load, and started again: only the requests in flight
 * on it may fail (a login the gateway cannot send again, as it may have been acted on), and status
 * waits held there go on: through the gateway (which sends a GET again) and straight at the
 * instance (the client library sends it again once the instance is back).
 */
export async function instanceKill(stack: DrillStack): Promise<DrillResult> {
  return underClusterLoad(stack, 'instance-kill', THREE, 'off', async (cluster, result) => {
    const victim = cluster.of('auth-api')[0];
    const waits = await heldWaits(stack, cluster, victim, 6);
    const killedAt = Date.now();
    const { exitedAt } = await cluster.restart(victim, 'SIGKILL');
    await waits.finish(result);
    // In flight when it died: sent before its exit was seen, answered after the signal.
    return { allowedFailures: (outcome) => outcome.sentAt <= exitedAt && outcome.answeredAt >= killedAt };
  });
}

/**
 * Redis's primary killed under load; the sentinels promote the replica. A login refused meanwhile
 * (503) is asked again after its Retry-After by the client libraries' HTTP layer; none may stay
 * refused. Afterwards a plan limit is exact again.
 */
export async function redisFailover(stack: DrillStack): Promise<DrillResult> {
  return underClusterLoad(
    stack,
    'redis-failover',
    { ...THREE, sentinels: true, env: PLAN_LIMIT_ENV },
    'as-the-client-libraries',
    async (cluster, result) => {
      await cluster.redis!.replicated();
      await cluster.redis!.killPrimary();
      result.recoveryMs = await probeRecovery(stack, cluster.gateway.url, Date.now());
      result.limitsExact = await exactlyTheLimit(
        stack,
        cluster.of('management-api').map((instance) => instance.server.url),
      );
      return { allowedFailures: () => false };
    },
  );
}

interface Verdict {
  /** Whether a failed request is one the fault may fail (any other failure fails the drill). */
  allowedFailures(outcome: { sentAt: number; answeredAt: number }): boolean;
}

type ClusterFault = (cluster: Cluster, result: DrillResult) => Promise<Verdict>;

async function underClusterLoad(
  stack: DrillStack,
  name: string,
  options: ClusterOptions,
  retries: Retries,
  fault: ClusterFault,
): Promise<DrillResult> {
  const result = emptyResult(name);
  const cluster = await Cluster.start(stack, options);
  try {
    let done = false;
    const logins = new LoginLoad(stack, name, () => cluster.gateway.url, retries);
    const reads = new ReadLoad(stack, cluster.gateway.url);
    const running = Promise.all([logins.runUntil(() => done), reads.runUntil(() => done)]);
    await sleep(WARM_UP_MS);
    let verdict: Verdict;
    try {
      verdict = await fault(cluster, result);
    } finally {
      done = true;
      await running;
    }
    await tally(stack, logins, result, cluster.of('management-api')[0].server.url, verdict.allowedFailures);
    for (const outcome of reads.outcomes) {
      if (outcome.status !== '200') result.refused[`read ${outcome.status}`] = (result.refused[`read ${outcome.status}`] ?? 0) + 1;
    }
    const failed = [...logins.outcomes, ...reads.outcomes].filter(
      (outcome) => outcome.status !== '200' && !verdict.allowedFailures(outcome),
    );
    if (failed.length) result.problems.push(`${failed.length} requests failed that the fault does not excuse`);
  } finally {
    if (failures(result).length) keepClusterLogs(name, cluster);
    await cluster.stop();
  }
  return result;
}

/** GET /api/v2/organization/{id} with the seed tenant's key, at fixed times, through the gateway. */
class ReadLoad {
  readonly outcomes: { status: string; sentAt: number; answeredAt: number }[] = [];

  constructor(
    private readonly stack: DrillStack,
    private readonly gatewayUrl: string,
  ) {}

  async runUntil(done: () => boolean): Promise<void> {
    const pending: Promise<void>[] = [];
    const started = Date.now();
    for (let i = 0; !done(); i++) {
      const wait = started + (i * 1000) / READ_RATE - Date.now();
      if (wait > 0) await sleep(wait);
      pending.push(this.readOne());
    }
    await Promise.all(pending);
  }

  private async readOne(): Promise<void> {
    const { seed } = this.stack.ctx;
    const sentAt = Date.now();
    const status = await fetch(`${this.gatewayUrl}/api/v2/organization/${seed.organizationId}`, {
      headers: { authorization: `Bearer ${seed.apiKey}` },
      signal: AbortSignal.timeout(15_000),
    }).then(
      async (response) => (await response.arrayBuffer(), String(response.status)),
      () => 'error',
    );
    this.outcomes.push({ status, sentAt, answeredAt: Date.now() });
  }
}

/**
 * `count` logins started through the gateway, each with a status wait held (GET
 * /v1/login_attempt/{id}?wait=20, by the client libraries' HTTP layer, in a client's loop) when the
 * fault comes: half through the gateway, half straight at `victim`. finish() enters each login's
 * code and checks that every wait ended with the attempt used, and that the library sent again
 * each wait the victim held.
 */
async function heldWaits(stack: DrillStack, cluster: Cluster, victim: Instance, count: number) {
  const { seed } = stack.ctx;
  const authorization = basicAuthorization(seed.clientId, seed.clientSecret);
  const logins = await Promise.all(
    Array.from({ length: count }, async () => {
      const email = stack.address('held-wait');
      const response = await fetch(`${cluster.gateway.url}/api/v1/authenticate_direct`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ email, redirect_uri: REDIRECT_URI, state: 'drill' }),
      });
      if (response.status !== 200) throw new Error(`authenticate_direct for a held wait: ${response.status}`);
      const { loginAttemptId } = (await response.json()) as { loginAttemptId: string };
      return { email, loginAttemptId };
    }),
  );
  let waitsAsked = 0;
  let tries = 0;
  const counting: FetchFunction = (url, init) => (tries++, nodeFetch(url, init));
  const clients = [cluster.gateway.url, `http://127.0.0.1:${victim.port}`].map(
    (url) => new SesameHttp({ baseUrl: `${url}/api`, fetch: counting, retry: ONE_INSTANCE_RETRY }),
  );
  const statusOf = async (http: SesameHttp, loginAttemptId: string): Promise<string> => {
    for (;;) {
      waitsAsked++;
      const answer = await http.get(`/v1/login_attempt/${loginAttemptId}?wait=20`, { authorization }).catch((error: Error) => error);
      if (answer instanceof Error) return `failed (${answer.message})`;
      const { status } = answer.body as { status: string };
      if (status !== 'pending') return status;
    }
  };
  const ended = logins.map(({ loginAttemptId }, i) => statusOf(clients[i % 2], loginAttemptId));
  // The waits are held once their requests are on their way; a moment more and each is in an instance's hands.
  await sleep(500);
  return {
    async finish(result: DrillResult): Promise<void> {
      for (const { email, loginAttemptId } of logins) {
        const code = codeIn(await stack.smtp.next(email));
        const used = await fetch(`${cluster.gateway.url}/api/v1/login_code`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ loginAttemptId, code }),
        });
        if (used.status !== 200) result.problems.push(`login_code for a held wait: ${used.status}`);
      }
      const statuses = await Promise.all(ended);
      const unfinished = statuses.filter((status) => status !== 'completed');
      if (unfinished.length) result.problems.push(`held waits that did not see their login used: ${unfinished.join(', ')}`);
      const sentAgain = tries - waitsAsked;
      if (sentAgain < count / 2)
        result.problems.push(`the client library sent ${sentAgain} held waits again; the victim held ${count / 2}`);
      log(`instance-kill: the client library sent held waits again ${sentAgain} times`);
    },
  };
}

function keepClusterLogs(name: string, cluster: Cluster): void {
  const dir = mkdtempSync(join(tmpdir(), `sesame-drill-${name}-`));
  for (const [file, text] of Object.entries(cluster.logs())) writeFileSync(join(dir, `${file}.log`), text);
  log(`drill ${name} failed: the logs are in ${dir}`);
}
