import { randomBytes, randomUUID } from 'node:crypto';
import request, { Response } from 'supertest';
import { RunningApp, registeredRoutes, startAuthApi, startManagementApi } from '../support/apps';
import { createTenant } from '../support/fixtures';
import { PLATFORM_KEY } from '../support/management';
import { validateOpenApi } from '../support/openapi-validator';
import { ThrowawayRedis } from '../support/throwaway-redis';

type Header = { required?: boolean };
type Answer = { description: string; headers?: Record<string, Header>; content?: Record<string, { schema: Record<string, unknown> }> };
type Operation = { requestBody?: { content: Record<string, unknown> }; responses: Record<string, Answer> };
type Document = { paths: Record<string, Record<string, Operation>> };
type Route = { method: string; path: string; operation: Operation };

/** Requests per address and minute in these apps: small, so that a probe can pass the limit. */
const LIMIT = 3;
const ENV = { GLOBAL_RATE_LIMIT: String(LIMIT), TRUST_PROXY: 'loopback' };
/** Served but not part of an API: Prometheus's scrape endpoint and the documents themselves. */
const NOT_API = / \/api\/(metrics|v\d\/openapi\.(json|yaml))$/;

let lastAddress = 0;
/** A client address of its own for each probe, so that probes do not share a rate-limit budget. */
const nextAddress = () => `198.51.${Math.floor(++lastAddress / 250)}.${(lastAddress % 250) + 1}`;

async function documentOf(app: RunningApp, version: 'v1' | 'v2'): Promise<Document> {
  return (await request(app.url).get(`/api/${version}/openapi.json`).expect(200)).body;
}

function routesOf(document: Document): Route[] {
  return Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })));
}

const name = (route: Route) => `${route.method} ${route.path}`;
const concretePath = (path: string) => path.replace(/\{\w+\}/g, () => randomUUID());

/** One request to a route: from its own address, with the given credentials and body. */
function probe(app: RunningApp, route: Route, options: { authorization?: string; contentType?: string; body?: string; address?: string } = {}) {
  let call = request(app.url)[route.method.toLowerCase() as 'get' | 'post' | 'delete'](concretePath(route.path))
    .set('X-Forwarded-For', options.address ?? nextAddress())
    .redirects(0);
  if (options.authorization) call = call.set('Authorization', options.authorization);
  if (options.contentType) call = call.set('Content-Type', options.contentType);
  return options.body === undefined ? call : call.send(options.body);
}

/** A check that names what it is about when it fails. */
function expectFor(label: string, actual: unknown, expected: unknown): void {
  expect([label, actual]).toEqual([label, expected]);
}

/** The answer is one the route documents: its status, its media type, and the headers it promises. */
function expectDocumented(route: Route, response: Response, probeName: string): void {
  const label = `${name(route)}, ${probeName}: ${response.status}`;
  const answer = route.operation.responses[String(response.status)];
  expectFor(label, answer ? 'documented' : 'undocumented', 'documented');
  const mediaTypes = Object.keys(answer.content ?? {});
  const mediaType = String(response.headers['content-type'] ?? '').split(';')[0];
  if (mediaTypes.length > 0) expectFor(`${label} as ${mediaType}`, mediaTypes.includes(mediaType), true);
  for (const [header, description] of Object.entries(answer.headers ?? {})) {
    if (description.required) expectFor(`${label}, ${header}`, response.headers[header.toLowerCase()], expect.any(String));
  }
}

/** Hostile and ordinary requests any client may send to every route, and what they prove. */
async function probeEveryRoute(app: RunningApp, routes: Route[], credentials: (string | undefined)[]): Promise<Set<string>> {
  const statuses = new Set<string>();
  const check = async (route: Route, probeName: string, answer: Promise<Response>) => {
    const response = await answer;
    expectDocumented(route, response, probeName);
    statuses.add(`${name(route)} ${response.status}`);
    return response;
  };
  for (const route of routes) {
    for (const authorization of credentials) {
      const as = authorization ? 'with credentials' : 'anonymous';
      await check(route, `${as}, no body`, probe(app, route, { authorization }));
      if (!route.operation.requestBody) continue;
      await check(route, `${as}, empty JSON object`, probe(app, route, { authorization, contentType: 'application/json', body: '{}' }));
      await check(route, `${as}, malformed JSON`, probe(app, route, { authorization, contentType: 'application/json', body: '{"name":' }));
      await check(route, `${as}, text/plain`, probe(app, route, { authorization, contentType: 'text/plain', body: 'name=x' }));
      await check(route, `${as}, 2 MB`, probe(app, route, { authorization, contentType: 'application/json', body: JSON.stringify({ name: 'x'.repeat(2_000_000) }) }));
    }
    // A well-formed credential that does not exist: userinfo limits only lookups of such tokens.
    const unknownCredential = `Bearer ${randomBytes(32).toString('base64url')}`;
    const address = nextAddress();
    const answers: Response[] = [];
    for (let i = 0; i <= LIMIT; i++) answers.push(await check(route, 'past the rate limit', probe(app, route, { authorization: unknownCredential, address })));
    expectFor(`${name(route)} past the rate limit`, answers.at(-1)!.status, 429);
  }
  return statuses;
}

/** What every operation promises besides its own answers. */
function expectCommonAnswers(routes: Route[], errorMediaType: (route: Route) => string): void {
  for (const route of routes) {
    const { responses, requestBody } = route.operation;
    const expected = ['429', '503', ...(requestBody ? ['400', '413', '415'] : [])];
    expectFor(name(route), Object.keys(responses), expect.arrayContaining(expected));
    expectFor(`${name(route)} 429`, Object.keys(responses['429'].headers ?? {}), expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']));
    expectFor(`${name(route)} 503`, responses['503'].headers?.['Retry-After']?.required, true);
    for (const [status, answer] of Object.entries(responses).filter(([status]) => /^[45]/.test(status))) {
      expectFor(`${name(route)} ${status}`, Object.keys(answer.content ?? {}), expect.arrayContaining([errorMediaType(route)]));
    }
  }
}

function expectSameRoutes(app: RunningApp, routes: Route[]): void {
  const served = registeredRoutes(app)
    .filter((route) => !NOT_API.test(route))
    .map((route) => route.replace(/:(\w+)/g, '{$1}'));
  expect(routes.map(name).sort()).toEqual([...new Set(served)].sort());
}

describe('the OpenAPI documents list every answer of every route', () => {
  describe.each([
    {
      title: 'auth API (v1)',
      version: 'v1' as const,
      start: () => startAuthApi({ env: ENV }),
      errorMediaType: (route: Route) => (/^\/api\/v1\/(authorize|login_link|autologin)$/.test(route.path) ? 'text/html' : 'application/json'),
      credentials: async () => [undefined],
    },
    {
      title: 'management API (v2)',
      version: 'v2' as const,
      start: () => startManagementApi({ env: ENV }),
      errorMediaType: () => 'application/problem+json',
      credentials: async (app: RunningApp) => [undefined, `Bearer ${(await createTenant(app.url)).apiKey}`, `Bearer ${PLATFORM_KEY}`],
    },
  ])('$title', ({ version, start, errorMediaType, credentials }) => {
    let app: RunningApp;
    let document: Document;
    let routes: Route[];

    beforeAll(async () => {
      app = await start();
      document = await documentOf(app, version);
      routes = routesOf(document);
    });
    afterAll(() => app?.close());

    it('is a valid OpenAPI document of exactly the routes Nest maps', () => {
      expect(validateOpenApi(document)).toEqual({ valid: true });
      expectSameRoutes(app, routes);
    });

    it('documents on every operation the rate limit (429), an unavailable dependency (503) and bad bodies (400, 413, 415), in the app’s error format', () => {
      expectCommonAnswers(routes, errorMediaType);
    });

    it('every route, probed anonymously, with credentials, with bad bodies and past the rate limit, answers only what it documents', async () => {
      // The platform key creates a tenant for the tenant key (before any probe).
      const statuses = await probeEveryRoute(app, routes, await credentials(app));
      expect(statuses.size).toBeGreaterThan(routes.length);
    }, 120_000);
  });
});

describe('with Redis down, every route answers only what it documents', () => {
  const redis: { server?: ThrowawayRedis } = {};
  let apps: { app: RunningApp; version: 'v1' | 'v2' }[];

  beforeAll(async () => {
    redis.server = await ThrowawayRedis.start();
    const env = { ...ENV, REDIS_URL: redis.server.url };
    apps = [
      { app: await startAuthApi({ env }), version: 'v1' },
      { app: await startManagementApi({ env }), version: 'v2' },
    ];
  });
  afterAll(async () => {
    if (redis.server && !redis.server.running) await redis.server.restart();
    for (const { app } of apps ?? []) await app.close();
    await redis.server?.kill();
  });

  it('503 with Retry-After, never an undocumented status', async () => {
    const documents = await Promise.all(apps.map(({ app, version }) => documentOf(app, version)));
    await redis.server!.kill();
    let unavailable = 0;
    for (const [index, { app }] of apps.entries()) {
      for (const route of routesOf(documents[index])) {
        const response = await probe(app, route);
        expectDocumented(route, response, 'Redis down');
        if (response.status === 503) unavailable++;
      }
    }
    expect(unavailable).toBeGreaterThan(0);
  }, 60_000);
});
