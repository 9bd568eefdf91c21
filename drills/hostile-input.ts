/**
 * Every hostile input of test/support/hostile-inputs.ts on every route in auth-api's and
 * management-api's OpenAPI documents, on Express and on Fastify: no 5xx, no stack trace.
 */
import { RunningServer } from '../bench/context';
import { basicAuthorization } from '../bench/fixture';
import { HOSTILE_INPUTS, sendHostile, STACK_TRACE } from '../test/support/hostile-inputs';
import { DrillResult, emptyResult } from './result';
import { DrillStack } from './stack';

const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
/** bench's environment raises every limit but the pages' (the hosted login page and login links). */
const UNTHROTTLED_PAGES = { PAGE_RATE_LIMIT: '1000000' };

export async function hostileInput(stack: DrillStack): Promise<DrillResult> {
  const result = emptyResult('hostile-input');
  for (const platform of ['express', 'fastify'] as const) {
    const prefix = stack.ctx.nextRedisPrefix();
    const start = (app: 'management-api' | 'auth-api') => stack.startApp(app, prefix, UNTHROTTLED_PAGES, platform);
    const [management, auth] = await Promise.all([start('management-api'), start('auth-api')]);
    try {
      const seed = stack.ctx.seed;
      await sweep(auth, 'v1', {}, [basicAuthorization(seed.clientId, seed.clientSecret)], result);
      const target = await sweepTarget(management.url, stack.ctx.platformKey);
      await sweep(management, 'v2', target.ids, [`Bearer ${stack.ctx.platformKey}`, `Bearer ${target.apiKey}`], result);
    } finally {
      await Promise.all([management.stop(), auth.stop()]);
    }
  }
  return result;
}

/** Sends every hostile input to every documented route of one app, with each authorization; counts the answers. */
async function sweep(
  app: RunningServer,
  version: string,
  ids: Record<string, string>,
  authorizations: string[],
  result: DrillResult,
): Promise<void> {
  for (const { method, path } of await documentedRoutes(app.url, version, ids)) {
    for (const hostile of HOSTILE_INPUTS) {
      for (const authorization of authorizations) {
        const response = await sendHostile(app.url, method, path, authorization, hostile);
        const status = response ? response.status : 'closed';
        if (typeof status === 'number' && status < 400) result.accepted += 1;
        else result.refused[status] = (result.refused[status] ?? 0) + 1;
        if (typeof status === 'number' && status >= 500) {
          result.unexpected5xx += 1;
          result.problems.push(`${method} ${path} (${hostile.label}): ${status}`);
        }
        if (response && STACK_TRACE.test(response.text))
          result.problems.push(`${method} ${path} (${hostile.label}): a stack trace in the answer`);
      }
    }
  }
}

/** The operations of an app's OpenAPI document, with their path parameters filled in. */
async function documentedRoutes(url: string, version: string, ids: Record<string, string>): Promise<{ method: string; path: string }[]> {
  const document = (await (await fetch(`${url}/api/${version}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? NO_SUCH_ID) })),
  );
}

/**
 * A tenant of the sweep's own, with an organization, application and user for the paths to name:
 * bodiless POSTs and DELETEs rotate secrets and delete what they reach.
 */
async function sweepTarget(managementUrl: string, platformKey: string): Promise<{ apiKey: string; ids: Record<string, string> }> {
  const post = async (path: string, key: string, body: object) => {
    const response = await fetch(`${managementUrl}/api/v2${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown> & { id: string };
  };
  const tenant = await post('/tenant', platformKey, { name: 'Hostile input drill', plan: 'pro' });
  const apiKey = (tenant.apiKey as { key: string }).key;
  const organization = await post('/organization', apiKey, { name: 'Hostile input drill' });
  const application = await post(`/organization/${organization.id}/application`, apiKey, { name: 'Hostile input drill', type: 'web' });
  const user = await post(`/organization/${organization.id}/user`, apiKey, { email: 'hostile-input@drills.example' });
  const tenantId = (tenant.tenant as { id: string }).id;
  return {
    apiKey,
    ids: { id: organization.id, organizationId: organization.id, applicationId: application.id, tenantId, userId: user.id },
  };
}
