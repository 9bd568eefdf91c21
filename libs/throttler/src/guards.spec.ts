import { Controller, ExecutionContext, Get, Logger } from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import { SkipThrottle, Throttle } from '@nestjs/throttler';
import { ManualClock, parseEnvironment, ProblemException } from '@sesame/common';
import { Principal, Public } from '@sesame/guards';
import { EndpointLimit, SkipPlanLimit } from './decorators';
import { EndpointThrottlerGuard } from './endpoint-throttler.guard';
import { GlobalIpThrottlerGuard } from './global-ip-throttler.guard';
import { PlanThrottlerGuard } from './plan-throttler.guard';
import { BucketCheck, HitResult, SlidingWindowStore, WindowSpec } from './rate-limit';
import { throttlerModuleOptions } from './throttler-options';

/** An in-memory sliding-window log with the Redis script's semantics (unit tests only). */
class MemoryStore implements SlidingWindowStore {
  readonly logs = new Map<string, number[]>();
  failing = false;
  /** Calls to hitAll: round trips to Redis. */
  calls = 0;

  async hit(bucket: string, windows: WindowSpec[], now: number): Promise<HitResult> {
    return this.run(bucket, windows, now, true);
  }

  async hitAll(checks: BucketCheck[], now: number): Promise<HitResult[]> {
    this.calls += 1;
    const results: HitResult[] = [];
    for (const { bucket, windows } of checks) {
      results.push(this.run(bucket, windows, now, true));
      if (!results.at(-1)!.allowed) break;
    }
    return results;
  }

  async peek(bucket: string, windows: WindowSpec[], now: number): Promise<HitResult> {
    return this.run(bucket, windows, now, false);
  }

  async increment(): Promise<never> {
    throw new Error('not used');
  }

  private run(bucket: string, windows: WindowSpec[], now: number, consume: boolean): HitResult {
    if (this.failing) throw new Error('Connection is closed.');
    const log = this.logs.get(bucket) ?? [];
    const inWindow = (window: WindowSpec) => log.filter((t) => t > now - window.lengthMs).sort((a, b) => a - b);
    const allowed = windows.every((window) => inWindow(window).length < window.limit);
    if (consume && allowed) log.push(now);
    this.logs.set(bucket, log);
    return {
      allowed,
      windows: windows.map((window) => {
        const hits = inWindow(window);
        const index = Math.max(0, hits.length - window.limit);
        return {
          ...window,
          used: hits.length,
          remaining: Math.max(0, window.limit - hits.length),
          resetMs: hits.length ? hits[index] + window.lengthMs - now : 0,
        };
      }),
    };
  }
}

@Controller()
class ExampleController {
  @Get() read() {}
  @Get() @Public() health() {}
  @Get() @SkipPlanLimit() free() {}
  @Get() @SkipThrottle({ 'plan-day': true }) noDailyLimit() {}
  @Get() @Throttle({ 'plan-minute': { limit: 1, ttl: 60_000 } }) strict() {}
  @Get() @EndpointLimit('tenant') login() {}
  @Get() @EndpointLimit('ip', { name: 'pages' }) page() {}
}

/** Inherits ExampleController's handlers (the same functions) but is exempt from the plan's limits. */
@Controller()
@SkipPlanLimit()
class ExemptController extends ExampleController {}

/** Inherits ExampleController's handlers under a limit of its own, declared on the class. */
@Controller()
@EndpointLimit('ip', { name: 'signup' })
class LimitedController extends ExampleController {}

const config = parseEnvironment({
  DATABASE_URL: 'postgres://localhost/unit',
  SECRETS_KEY: '00'.repeat(32),
  PLAN_LIMITS: JSON.stringify({ basic: { minute: 3, hour: 5, day: 100 }, pro: { minute: 7, hour: 50, day: 100 } }),
  ENDPOINT_LIMITS: JSON.stringify({ basic: 2 }),
  PAGE_RATE_LIMIT: '4',
  GLOBAL_RATE_LIMIT: '6',
});

interface FakeRequest {
  headers: Record<string, string>;
  ip: string;
  principal?: Principal;
  client?: unknown;
}

function contextFor(
  handler: keyof ExampleController,
  request: FakeRequest,
  response: { headers: Record<string, string> },
  controller: typeof ExampleController = ExampleController,
): ExecutionContext {
  return {
    getType: () => 'http',
    getHandler: () => controller.prototype[handler],
    getClass: () => controller,
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response, getNext: () => undefined }),
  } as unknown as ExecutionContext;
}

describe('throttler guards', () => {
  let store: MemoryStore;
  let clock: ManualClock;
  let plan: PlanThrottlerGuard;
  let global: GlobalIpThrottlerGuard;
  let endpoint: EndpointThrottlerGuard;
  /** A global guard told by GLOBAL_LIMIT_DEFERRAL that its check may wait for the next limit guard's. */
  let deferringGlobal: GlobalIpThrottlerGuard;

  const adapterHost = {
    httpAdapter: {
      setHeader: (response: { headers: Record<string, string> }, name: string, value: string) => (response.headers[name] = value),
    },
  } as unknown as HttpAdapterHost;
  const tenantKey: Principal = { kind: 'tenant', tenantId: 't1', plan: 'basic', apiKeyId: 'k1', apiKeyName: 'one', role: 'owner' };
  const orgKey: Principal = {
    kind: 'organization',
    tenantId: 't1',
    organizationId: 'o1',
    plan: 'basic',
    apiKeyId: 'k2',
    apiKeyName: 'two',
    role: 'admin',
  };

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(async () => {
    store = new MemoryStore();
    clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
    const options = throttlerModuleOptions(config, store);
    const make = <T extends { onModuleInit(): Promise<void> }>(Guard: new (...args: never[]) => T) =>
      new (Guard as unknown as new (...args: unknown[]) => T)(options, store, new Reflector(), adapterHost, clock);
    plan = make(PlanThrottlerGuard);
    global = make(GlobalIpThrottlerGuard);
    endpoint = make(EndpointThrottlerGuard);
    deferringGlobal = Object.assign(make(GlobalIpThrottlerGuard), { deferral: { mayWait: () => true } });
    await Promise.all([plan.onModuleInit(), global.onModuleInit(), endpoint.onModuleInit(), deferringGlobal.onModuleInit()]);
  });

  async function call(
    guard: { canActivate(context: ExecutionContext): Promise<boolean> },
    handler: keyof ExampleController,
    request: Partial<FakeRequest>,
  ) {
    const response = { headers: {} as Record<string, string> };
    const full = { headers: {}, ip: '192.0.2.1', ...request };
    try {
      return { passed: await guard.canActivate(contextFor(handler, full, response)), headers: response.headers, error: undefined };
    } catch (error) {
      return { passed: false, headers: response.headers, error: error as ProblemException };
    }
  }

  it('counts tenant and organization keys in one bucket per tenant, all windows at once', async () => {
    for (let i = 0; i < 3; i++) expect((await call(plan, 'read', { principal: i % 2 ? orgKey : tenantKey })).passed).toBe(true);
    const refused = await call(plan, 'read', { principal: orgKey });
    expect(refused.error?.status).toBe(429);
    expect(refused.error?.extensions).toEqual({ scope: 'plan', window: 'minute', limit: 3, retryAfter: 60 });
    expect([...store.logs.keys()]).toEqual(['{tenant:t1}:plan']);

    clock.advance(60);
    for (let i = 0; i < 2; i++) expect((await call(plan, 'read', { principal: tenantKey })).passed).toBe(true);
    const byHour = await call(plan, 'read', { principal: tenantKey });
    expect(byHour.error?.extensions).toEqual({ scope: 'plan', window: 'hour', limit: 5, retryAfter: 3540 });
    expect(byHour.error?.headers).toEqual({
      'Retry-After': '3540',
      'RateLimit-Limit': '5',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '3540',
      'RateLimit-Policy': '3;w=60, 5;w=3600, 100;w=86400',
    });
  });

  it('exempts the platform key, @Public() and @SkipPlanLimit() routes; honours @SkipThrottle and @Throttle per window', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await call(plan, 'read', { principal: { kind: 'platform' } })).passed).toBe(true);
      expect((await call(plan, 'health', {})).passed).toBe(true);
      expect((await call(plan, 'free', { principal: tenantKey })).passed).toBe(true);
    }
    expect(store.logs.size).toBe(0);

    const strict = await call(plan, 'strict', { principal: tenantKey });
    expect(strict.headers['RateLimit-Limit']).toBe('1');
    expect((await call(plan, 'strict', { principal: tenantKey })).error?.extensions).toMatchObject({ window: 'minute', limit: 1 });

    clock.advance(60);
    const noDaily = await call(plan, 'noDailyLimit', { principal: tenantKey });
    expect(noDaily.headers['RateLimit-Policy']).toBe('3;w=60, 5;w=3600');
  });

  it("reads a route's decorators once, its limits per request and per controller", async () => {
    const basic = await call(plan, 'read', { principal: tenantKey });
    const pro = await call(plan, 'read', { principal: { ...tenantKey, tenantId: 't9', plan: 'pro' } });
    expect([basic.headers['RateLimit-Limit'], pro.headers['RateLimit-Limit']]).toEqual(['3', '7']);

    // The same handler function, inherited by a controller that skips the plan's limits.
    const response = { headers: {} as Record<string, string> };
    await plan.canActivate(contextFor('read', { headers: {}, ip: '192.0.2.1', principal: tenantKey }, response, ExemptController));
    expect(response.headers).toEqual({});
    expect(store.logs.get('{tenant:t1}:plan')).toHaveLength(1);
    expect((await call(plan, 'read', { principal: tenantKey })).headers['RateLimit-Remaining']).toBe('1');
  });

  it('keeps the tightest window of all guards in the headers', async () => {
    const request = { headers: {}, ip: '192.0.2.9', principal: tenantKey };
    const response = { headers: {} as Record<string, string> };
    await global.canActivate(contextFor('read', request, response));
    expect(response.headers['RateLimit-Limit']).toBe('6');
    await plan.canActivate(contextFor('read', request, response));
    expect(response.headers['RateLimit-Limit']).toBe('3');
    expect(response.headers['RateLimit-Remaining']).toBe('2');
  });

  it('keys the global limit by client IP, IPv6 by /64', async () => {
    for (let i = 0; i < 6; i++) expect((await call(global, 'read', { ip: `2001:db8::${i + 1}` })).passed).toBe(true);
    expect((await call(global, 'read', { ip: '2001:db8::ffff' })).error?.extensions).toMatchObject({ scope: 'global', limit: 6 });
    expect((await call(global, 'read', { ip: '::ffff:192.0.2.1' })).passed).toBe(true);
    expect([...store.logs.keys()].sort()).toEqual(['{ip:192.0.2.1}:global', '{ip:2001:db8::/64}:global']);
  });

  it('applies endpoint limits only with @EndpointLimit, per tenant of the client or per IP', async () => {
    expect((await call(endpoint, 'read', { principal: tenantKey })).passed).toBe(true);
    expect(store.logs.size).toBe(0);

    const client = { tenantId: 't2', plan: 'basic' };
    for (let i = 0; i < 2; i++) expect((await call(endpoint, 'login', { client })).passed).toBe(true);
    const refused = await call(endpoint, 'login', { client });
    expect(refused.error?.detail).toBe('This endpoint allows 2 requests per minute for the tenant; retry in 60 seconds');

    for (let i = 0; i < 4; i++) expect((await call(endpoint, 'page', {})).passed).toBe(true);
    expect((await call(endpoint, 'page', {})).error?.extensions).toMatchObject({ scope: 'endpoint', limit: 4 });
    expect([...store.logs.keys()].sort()).toEqual(['{ip:192.0.2.1}:endpoint:pages', '{tenant:t2}:endpoint:ExampleController.login']);
  });

  it("reads @EndpointLimit once per handler and controller: an inherited handler gets its controller's limit", async () => {
    const request = { headers: {}, ip: '192.0.2.1' };
    const response = { headers: {} as Record<string, string> };
    await endpoint.canActivate(contextFor('read', request, response));
    await endpoint.canActivate(contextFor('read', request, response, LimitedController));
    await endpoint.canActivate(contextFor('read', request, response));
    expect([...store.logs.entries()]).toEqual([['{ip:192.0.2.1}:endpoint:signup', [clock.now().getTime()]]]);
  });

  describe('a deferred global check', () => {
    /** The global guard, then the plan's, on one request, as the app runs them. */
    async function chain(ip: string) {
      const request = { headers: {}, ip, principal: tenantKey };
      const response = { headers: {} as Record<string, string> };
      try {
        for (const guard of [deferringGlobal, plan]) await guard.canActivate(contextFor('read', request, response));
        return { headers: response.headers, error: undefined };
      } catch (error) {
        return { headers: response.headers, error: error as ProblemException };
      }
    }

    it('goes to the store with the plan check: one call a request, the global bucket counted first', async () => {
      const passed = await chain('192.0.2.7');
      expect(passed.error).toBeUndefined();
      expect(store.calls).toBe(1);
      expect(store.logs.get('{ip:192.0.2.7}:global')).toHaveLength(1);
      expect(store.logs.get('{tenant:t1}:plan')).toHaveLength(1);
      // The tightest window of both, as when each guard went on its own.
      expect(passed.headers['RateLimit-Limit']).toBe('3');
      expect(passed.headers['RateLimit-Remaining']).toBe('2');
    });

    it("keeps each limit's refusal: the plan's counts the global bucket, the global's counts nothing else", async () => {
      for (let i = 0; i < 3; i++) expect((await chain(`192.0.2.${10 + i}`)).error).toBeUndefined();
      const byPlan = await chain('192.0.2.20');
      expect(byPlan.error?.extensions).toMatchObject({ scope: 'plan', limit: 3 });
      expect(store.logs.get('{ip:192.0.2.20}:global')).toHaveLength(1);

      clock.advance(60);
      for (let i = 0; i < 6; i++) await call(global, 'read', { ip: '192.0.2.30' });
      const byGlobal = await chain('192.0.2.30');
      expect(byGlobal.error?.extensions).toMatchObject({ scope: 'global', limit: 6 });
      expect(byGlobal.error?.detail).toBe('Too many requests from this address: at most 6 per minute; retry in 60 seconds');
      expect(store.logs.get('{tenant:t1}:plan')).toHaveLength(3);
    });

    it('is counted alone by the next limit guard when that one does not count the request', async () => {
      const request = { headers: {}, ip: '192.0.2.40', principal: { kind: 'platform' } as Principal };
      const response = { headers: {} as Record<string, string> };
      await deferringGlobal.canActivate(contextFor('read', request, response));
      expect(store.calls).toBe(0);
      await plan.canActivate(contextFor('read', request, response));
      expect(store.calls).toBe(1);
      expect(store.logs.get('{ip:192.0.2.40}:global')).toHaveLength(1);
      expect(response.headers['RateLimit-Limit']).toBe('6');
    });
  });

  it('answers 503 rate_limiter_unavailable when the store fails', async () => {
    store.failing = true;
    const result = await call(plan, 'read', { principal: tenantKey });
    expect(result.error).toBeInstanceOf(ProblemException);
    expect(result.error?.status).toBe(503);
    expect(result.error?.code).toBe('rate_limiter_unavailable');
    expect(result.error?.headers).toEqual({ 'Retry-After': '1' });
  });
});
