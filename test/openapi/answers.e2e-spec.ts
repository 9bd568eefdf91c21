import { randomBytes, randomUUID } from 'node:crypto';
import request, { Response } from 'supertest';
import { RunningApp, registeredRoutes, startAuthApi, startManagementApi } from '../support/apps';
import { createTenant } from '../support/fixtures';
import { PLATFORM_KEY } from '../support/management';
import { validateOpenApi } from '../support/openapi-validator';
import { CONSOLE_SETUP_TIMEOUT_MS, ConsoleStack, signInThroughConsole, startConsoleStack } from '../support/console';
import { uniqueEmail } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';
import { ThrowawayRedis } from '../support/throwaway-redis';

type Header = { required?: boolean };
type Answer = { description: string; headers?: Record<string, Header>; content?: Record<string, { schema: Record<string, unknown> }> };
type Operation = { requestBody?: { content: Record<string, unknown> }; responses: Record<string, Answer> };
type Document = { paths: Record<string, Record<string, Operation>> };
type Route = { method: string; path: string; operation: Operation };

type Credentials = Record<string, string>;

/** Requests per address and minute in these apps: small, so that a probe can pass the limit. */
const LIMIT = 3;
const envWithLimit = (limit: number) => ({ GLOBAL_RATE_LIMIT: String(limit), TRUST_PROXY: 'loopback' });
const ENV = envWithLimit(LIMIT);
/**
 * Served but not part of an API: Prometheus's scrape endpoint, the documents themselves (and the
 * console's Swagger UI, which registeredRoutes leaves in), and the console's pages (everything under /console but its API and its sign-in callback).
 */
const NOT_API =
  / \/(api\/(metrics|v\d\/openapi\.(json|yaml))|console(?!\/(api|auth)\/).*|console\/api\/(openapi\.(json|yaml)|docs(\/.*)?))$/;

let lastAddress = 0;
/** A client address of its own for each probe, so that probes do not share a rate-limit budget. */
const nextAddress = () => `198.51.${Math.floor(++lastAddress / 250)}.${(lastAddress % 250) + 1}`;

async function documentOf(app: RunningApp, path: string): Promise<Document> {
  return (await request(app.url).get(path).expect(200)).body;
}

function routesOf(document: Document): Route[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

const name = (route: Route) => `${route.method} ${route.path}`;
const concretePath = (path: string) => path.replace(/\{\w+\}/g, () => randomUUID());

/** One request to a route: from its own address, with the given credentials and body. */
function probe(
  app: RunningApp,
  route: Route,
  options: { credentials?: Credentials; contentType?: string; body?: string; address?: string } = {},
) {
  const method = route.method.toLowerCase() as 'get' | 'post' | 'delete';
  const agent = request(app.url);
  const call = agent[method](concretePath(route.path))
    .set({ ...options.credentials, 'X-Forwarded-For': options.address ?? nextAddress() })
    .redirects(0);
  if (options.contentType) call.set('Content-Type', options.contentType);
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
async function probeEveryRoute(app: RunningApp, routes: Route[], credentials: Credentials[], limit: number): Promise<Set<string>> {
  const statuses = new Set<string>();
  const check = async (route: Route, probeName: string, answer: Promise<Response>) => {
    const response = await answer;
    expectDocumented(route, response, probeName);
    statuses.add(`${name(route)} ${response.status}`);
    return response;
  };
  for (const route of routes) {
    for (const [index, given] of [{}, ...credentials].entries()) {
      const as = index === 0 ? 'anonymous' : `with credentials ${index}`;
      await check(route, `${as}, no body`, probe(app, route, { credentials: given }));
      if (!route.operation.requestBody) continue;
      await check(
        route,
        `${as}, empty JSON object`,
        probe(app, route, { credentials: given, contentType: 'application/json', body: '{}' }),
      );
      await check(
        route,
        `${as}, malformed JSON`,
        probe(app, route, { credentials: given, contentType: 'application/json', body: '{"name":' }),
      );
      await check(route, `${as}, text/plain`, probe(app, route, { credentials: given, contentType: 'text/plain', body: 'name=x' }));
      await check(
        route,
        `${as}, 2 MB`,
        probe(app, route, { credentials: given, contentType: 'application/json', body: JSON.stringify({ name: 'x'.repeat(2_000_000) }) }),
      );
    }
    // A well-formed credential that does not exist: userinfo limits only lookups of such tokens.
    const unknownCredential = { Authorization: `Bearer ${randomBytes(32).toString('base64url')}` };
    const address = nextAddress();
    const answers: Response[] = [];
    for (let i = 0; i <= limit; i++)
      answers.push(await check(route, 'past the rate limit', probe(app, route, { credentials: unknownCredential, address })));
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
    expectFor(
      `${name(route)} 429`,
      Object.keys(responses['429'].headers ?? {}),
      expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']),
    );
    expectFor(`${name(route)} 503`, responses['503'].headers?.['Retry-After']?.required, true);
    for (const [status, answer] of Object.entries(responses).filter(([status]) => /^[45]/.test(status))) {
      expectFor(`${name(route)} ${status}`, Object.keys(answer.content ?? {}), expect.arrayContaining([errorMediaType(route)]));
    }
  }
}

function expectSameRoutes(app: RunningApp, routes: Route[]): void {
  const served = registeredRoutes(app)
    .filter((route) => !NOT_API.test(route))
    .map((route) => route.replace(/:(\w+)/g, '{$1}').replace(/\/\{?\*(\w*)\}?$/, (_, wildcard: string) => `/{${wildcard || 'path'}}`));
  expect(routes.map(name).sort()).toEqual([...new Set(served)].sort());
}

interface Subject {
  title: string;
  /** The app under test, with what else it needs; `close` stops it all. */
  start(): Promise<{ app: RunningApp; close(): Promise<void> }>;
  documentPath: string;
  errorMediaType(route: Route): string;
  /** Credentials the probes use besides none (each reaches further into the routes). */
  credentials(app: RunningApp): Promise<Credentials[]>;
  limit: number;
}

const smtp = new SmtpSink();
beforeAll(() => smtp.start());
afterAll(() => smtp.stop());

/** The console's own sign-in goes through the stack from one address: room for it. */
const CONSOLE_LIMIT = 20;
let consoleStack: ConsoleStack;

const withClose = (app: RunningApp) => ({ app, close: () => app.close() });

const SUBJECTS: Subject[] = [
  {
    title: 'auth API (v1)',
    start: async () => withClose(await startAuthApi({ env: ENV })),
    documentPath: '/api/v1/openapi.json',
    // Pages answer errors as pages; the hosted page's passkey requests (its script's fetches) as JSON.
    errorMediaType: (route) =>
      /^\/api\/v1\/(authorize|login_link|autologin)(\/|$)/.test(route.path) && !route.path.startsWith('/api/v1/authorize/passkey/')
        ? 'text/html'
        : 'application/json',
    credentials: async () => [],
    limit: LIMIT,
  },
  {
    title: 'management API (v2)',
    start: async () => withClose(await startManagementApi({ env: ENV })),
    documentPath: '/api/v2/openapi.json',
    errorMediaType: () => 'application/problem+json',
    credentials: async (app) => [
      { Authorization: `Bearer ${(await createTenant(app.url)).apiKey}` },
      { Authorization: `Bearer ${PLATFORM_KEY}` },
    ],
    limit: LIMIT,
  },
  {
    title: 'console',
    start: async () => {
      const stack = await startConsoleStack(smtp.url, { env: { ...envWithLimit(CONSOLE_LIMIT), API_KEY_CACHE_SECONDS: '0' } });
      consoleStack = stack;
      return { app: stack.console, close: () => stack.close() };
    },
    documentPath: '/console/api/openapi.json',
    errorMediaType: () => 'application/problem+json',
    credentials: async () => [await signedInMember()],
    limit: CONSOLE_LIMIT,
  },
];

/** A member of a tenant, signed in to the console: its session cookie, CSRF token and tenant. */
async function signedInMember(): Promise<Credentials> {
  const email = uniqueEmail('answers');
  const created = await request(consoleStack.origin)
    .post('/api/v2/tenant')
    .set('Authorization', `Bearer ${PLATFORM_KEY}`)
    .send({ name: 'Answers', plan: 'pro', ownerEmail: email })
    .expect(201);
  const browser = await signInThroughConsole(consoleStack, smtp, email);
  return {
    Cookie: [...browser.cookies].map(([cookie, value]) => `${cookie}=${value}`).join('; '),
    'X-CSRF-Token': browser.csrfToken!,
    'Sesame-Tenant': created.body.tenant.id,
  };
}

describe.each(SUBJECTS)(
  'the OpenAPI document of the $title lists every answer of every route',
  ({ start, documentPath, errorMediaType, credentials, limit }) => {
    let subject: { app: RunningApp; close(): Promise<void> };
    let document: Document;
    let routes: Route[];

    beforeAll(async () => {
      subject = await start();
      document = await documentOf(subject.app, documentPath);
      routes = routesOf(document);
    }, CONSOLE_SETUP_TIMEOUT_MS);
    afterAll(() => subject?.close());

    it('is a valid OpenAPI document of exactly the routes Nest maps', () => {
      expect(validateOpenApi(document)).toEqual({ valid: true });
      expectSameRoutes(subject.app, routes);
    });

    it('documents on every operation the rate limit (429), an unavailable dependency (503) and bad bodies (400, 413, 415), in the app’s error format', () => {
      expectCommonAnswers(routes, errorMediaType);
    });

    it('every route, probed anonymously, with credentials, with bad bodies and past the rate limit, answers only what it documents', async () => {
      const statuses = await probeEveryRoute(subject.app, routes, await credentials(subject.app), limit);
      expect(statuses.size).toBeGreaterThan(routes.length);
    }, 180_000);
  },
);

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
    const documents = await Promise.all(apps.map(({ app, version }) => documentOf(app, `/api/${version}/openapi.json`)));
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
