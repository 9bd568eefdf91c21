/**
 * Two management-api instances share one tenant's plan limit through Redis: twice the limit in
 * concurrent requests, spread over both, must be answered with exactly the limit in 200s and the
 * rest 429.
 */
import { RAISED_LIMITS } from '../bench/context';
import { DrillResult, emptyResult } from './result';
import { DrillStack } from './stack';

const LIMIT = 50;
/** The drills' plan limits: `basic` at LIMIT a minute, hour and day left out of the way; the seeded `pro` tenant unlimited. */
export const PLAN_LIMIT_ENV = {
  PLAN_LIMITS: JSON.stringify({ ...JSON.parse(RAISED_LIMITS.PLAN_LIMITS), basic: { minute: LIMIT, hour: 100 * LIMIT, day: 1000 * LIMIT } }),
};

export async function planLimit(stack: DrillStack): Promise<DrillResult> {
  const result = emptyResult('plan-limit');
  const prefix = stack.ctx.nextRedisPrefix();
  const instances = await Promise.all([
    stack.startApp('management-api', prefix, PLAN_LIMIT_ENV),
    stack.startApp('management-api', prefix, PLAN_LIMIT_ENV),
  ]);
  try {
    result.limitsExact = await exactlyTheLimit(
      stack,
      instances.map((instance) => instance.url),
      result,
    );
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()));
  }
  return result;
}

/**
 * A new basic tenant's key used twice its plan limit at once, spread over the management-api
 * instances at `urls` (started with PLAN_LIMIT_ENV): whether exactly the limit was served and the
 * rest refused with 429. The answers are counted into `result` when given.
 */
export async function exactlyTheLimit(stack: DrillStack, urls: string[], result = emptyResult('limit')): Promise<boolean> {
  const key = await basicTenantKey(urls[0], stack.ctx.platformKey);
  const statuses = await Promise.all(
    Array.from({ length: 2 * LIMIT }, (_, i) =>
      fetch(`${urls[i % urls.length]}/api/v2/organization`, {
        headers: { authorization: `Bearer ${key}` },
        signal: AbortSignal.timeout(15_000),
      }).then(
        async (response) => (await response.arrayBuffer(), String(response.status)),
        () => 'error',
      ),
    ),
  );
  let served = 0;
  for (const status of statuses) {
    if (status === '200') served += 1;
    else result.refused[status] = (result.refused[status] ?? 0) + 1;
    if (status.startsWith('5')) result.unexpected5xx += 1;
  }
  result.accepted += served;
  return served === LIMIT && statuses.filter((status) => status === '429').length === LIMIT;
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
