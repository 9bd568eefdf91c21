/**
 * Two management-api instances share one tenant's plan limit through Redis: twice the limit in
 * concurrent requests, spread over both, must be answered with exactly the limit in 200s and the
 * rest 429.
 */
import { DrillResult, emptyResult } from './result';
import { DrillStack } from './stack';

const LIMIT = 50;
/** The drill's own plan limits: `basic` at LIMIT a minute, hour and day left out of the way. */
const ENV = { PLAN_LIMITS: JSON.stringify({ basic: { minute: LIMIT, hour: 100 * LIMIT, day: 1000 * LIMIT } }) };

export async function planLimit(stack: DrillStack): Promise<DrillResult> {
  const result = emptyResult('plan-limit');
  const prefix = stack.ctx.nextRedisPrefix();
  const instances = await Promise.all([stack.startApp('management-api', prefix, ENV), stack.startApp('management-api', prefix, ENV)]);
  try {
    const key = await basicTenantKey(instances[0].url, stack.ctx.platformKey);
    const statuses = await Promise.all(
      Array.from({ length: 2 * LIMIT }, (_, i) =>
        fetch(`${instances[i % 2].url}/api/v2/organization`, {
          headers: { authorization: `Bearer ${key}` },
          signal: AbortSignal.timeout(15_000),
        }).then(
          async (response) => (await response.arrayBuffer(), String(response.status)),
          () => 'error',
        ),
      ),
    );
    for (const status of statuses) {
      if (status === '200') result.accepted += 1;
      else result.refused[status] = (result.refused[status] ?? 0) + 1;
      if (status.startsWith('5')) result.unexpected5xx += 1;
    }
    result.limitsExact = result.accepted === LIMIT && result.refused['429'] === LIMIT;
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()));
  }
  return result;
}

/** A new tenant on the basic plan (made with the platform key, which no plan limit counts); its API key. */
async function basicTenantKey(managementUrl: string, platformKey: string): Promise<string> {
  const response = await fetch(`${managementUrl}/api/v2/tenant`, {
    method: 'POST',
    headers: { authorization: `Bearer ${platformKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Plan limit drill', plan: 'basic' }),
  });
  if (response.status !== 201) throw new Error(`POST /api/v2/tenant: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { apiKey: { key: string } }).apiKey.key;
}
