import { CanActivate, Controller, ExecutionContext, Get, HttpCode, Injectable, Module, Post, UseGuards } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ClockModule, ManualClock, ProblemFilter, RedisModule, SesameConfig, SesameConfigModule } from '@sesame/common';
import { ClientPrincipal } from '@sesame/guards';
import { EndpointLimit, EndpointThrottlerGuard, GlobalIpThrottlerGuard, PlanUsageService, ThrottlingModule } from '@sesame/throttler';
import request from 'supertest';
import { ManagementApiModule } from '../../apps/management-api/src/management-api.module';
import { RunningApp, startApp, StartOptions, startManagementApi } from '../support/apps';
import { createTenant } from '../support/fixtures';
import { limitHeaders, ownRedisPrefix } from './support';

/** Test-only stand-in for the auth API's ClientAuthGuard: the tenant and plan come from headers. */
@Injectable()
class HeaderClientGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<{ headers: Record<string, string>; client?: Partial<ClientPrincipal> }>();
    if (req.headers['x-tenant']) req.client = { tenantId: req.headers['x-tenant'], plan: req.headers['x-plan'] as ClientPrincipal['plan'] };
    return true;
  }
}

@Controller({ version: '1' })
class LoginController {
  @Post('login')
  @HttpCode(200)
  @UseGuards(HeaderClientGuard, EndpointThrottlerGuard)
  @EndpointLimit('tenant')
  login() {
    return { ok: true };
  }

  @Post('verify')
  @HttpCode(200)
  @UseGuards(HeaderClientGuard, EndpointThrottlerGuard)
  @EndpointLimit('tenant', { name: 'shared' })
  verify() {
    return { ok: true };
  }

  @Post('revoke')
  @HttpCode(200)
  @UseGuards(HeaderClientGuard, EndpointThrottlerGuard)
  @EndpointLimit('tenant', { name: 'shared' })
  revoke() {
    return { ok: true };
  }

  @Get('page')
  @UseGuards(EndpointThrottlerGuard)
  @EndpointLimit('ip')
  page() {
    return { ok: true };
  }

  @Get('open')
  @UseGuards(EndpointThrottlerGuard)
  open() {
    return { ok: true };
  }
}

/** A feature module that does not import ThrottlingModule itself, like the auth API's. */
@Module({ controllers: [LoginController], providers: [HeaderClientGuard] })
class LoginModule {}

/** Wired like the auth API: the global per-IP guard on every route, endpoint limits by decorator. */
@Module({})
class TestAuthModule {
  static forRoot(config: SesameConfig) {
    return {
      module: TestAuthModule,
      imports: [SesameConfigModule.forRoot(config), ClockModule, RedisModule, ThrottlingModule, LoginModule],
      providers: [
        { provide: APP_GUARD, useExisting: GlobalIpThrottlerGuard },
        { provide: APP_FILTER, useClass: ProblemFilter },
      ],
    };
  }
}

const PLATFORMS = ['express', 'fastify'] as const;

/** The management API without its Swagger UI (which needs @fastify/static on Fastify). */
const startManagementWithoutDocs = (options: StartOptions) => startApp((config) => ManagementApiModule.forRoot(config), options);

describe.each(PLATFORMS)('on %s', (platform) => {
  describe('the global per-IP limit', () => {
    const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
    let direct: RunningApp;
    let behindProxy: RunningApp;

    beforeAll(async () => {
      direct = await startManagementWithoutDocs({
        clock,
        env: { HTTP_PLATFORM: platform, GLOBAL_RATE_LIMIT: '3', REDIS_PREFIX: ownRedisPrefix() },
      });
      behindProxy = await startManagementWithoutDocs({
        clock,
        env: { HTTP_PLATFORM: platform, GLOBAL_RATE_LIMIT: '3', TRUST_PROXY: 'loopback', REDIS_PREFIX: ownRedisPrefix() },
      });
    });
    afterAll(async () => {
      await direct?.close();
      await behindProxy?.close();
    });

    it('covers every route, public ones included, and a forged X-Forwarded-For does not reset it', async () => {
      clock.advance(3600);
      const policy = '3;w=60';
      for (let i = 1; i <= 3; i++) {
        const response = await request(direct.url).get('/api/health').set('X-Forwarded-For', `203.0.113.${i}`);
        expect(response.status).toBe(200);
        expect(limitHeaders(response)).toEqual({ limit: '3', remaining: String(3 - i), reset: '60', policy, retryAfter: undefined });
      }
      clock.advance(15);
      const refused = await request(direct.url).get('/api/health').set('X-Forwarded-For', '198.51.100.7');
      expect(refused.status).toBe(429);
      expect(limitHeaders(refused)).toEqual({ limit: '3', remaining: '0', reset: '45', policy, retryAfter: '45' });
      expect(refused.body).toEqual({
        type: 'urn:sesame:error:rate_limited',
        title: 'Too Many Requests',
        status: 429,
        detail: 'Too many requests from this address: at most 3 per minute; retry in 45 seconds',
        code: 'rate_limited',
        instance: '/api/health',
        scope: 'global',
        window: 'minute',
        limit: 3,
        retryAfter: 45,
      });
      // Refused before authentication: no key lookup, no work.
      const unauthenticated = await request(direct.url).get('/api/v2/tenant');
      expect(unauthenticated.status).toBe(429);
    });

    it('holds for a key the cache holds, whose check goes to Redis with the plan’s: refused with the global limit’s answer, the plan not charged', async () => {
      clock.advance(3600);
      const tenant = await createTenant(direct.url, 'basic');
      clock.advance(3600);
      // The first request looks the key up (the global limit counted before it); the next two are answered from the cache.
      for (let i = 1; i <= 3; i++) {
        const response = await request(direct.url).get('/api/v2/tenant').set('Authorization', `Bearer ${tenant.apiKey}`);
        expect(response.status).toBe(200);
      }
      const refused = await request(direct.url).get('/api/v2/tenant').set('Authorization', `Bearer ${tenant.apiKey}`);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'rate_limited', scope: 'global', limit: 3 });
      expect(refused.body.detail).toBe('Too many requests from this address: at most 3 per minute; retry in 60 seconds');
      const plan = await direct.app.get(PlanUsageService).usage(tenant.tenantId, 'basic');
      expect(plan.map((window) => window.used)).toEqual([3, 3, 3]);
    });

    it('uses X-Forwarded-For only from a proxy that TRUST_PROXY names', async () => {
      clock.advance(3600);
      for (let i = 1; i <= 3; i++) {
        expect((await request(behindProxy.url).get('/api/health').set('X-Forwarded-For', '198.51.100.1')).status).toBe(200);
      }
      expect((await request(behindProxy.url).get('/api/health').set('X-Forwarded-For', '198.51.100.1')).status).toBe(429);
      // A different client behind the trusted proxy has its own budget.
      const other = await request(behindProxy.url).get('/api/health').set('X-Forwarded-For', '198.51.100.2');
      expect(other.status).toBe(200);
      expect(other.headers['ratelimit-remaining']).toBe('2');
    });
  });

  describe('per-endpoint limits (@EndpointLimit)', () => {
    const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
    let app: RunningApp;

    beforeAll(async () => {
      app = await startApp((config) => TestAuthModule.forRoot(config), {
        clock,
        env: {
          HTTP_PLATFORM: platform,
          ENDPOINT_LIMITS: JSON.stringify({ basic: 3, pro: 5 }),
          PAGE_RATE_LIMIT: '2',
          GLOBAL_RATE_LIMIT: '1000',
          REDIS_PREFIX: ownRedisPrefix(),
        },
      });
    });
    afterAll(() => app?.close());

    it("keys 'tenant' endpoints by the client's tenant, with the plan's limit, apart from the plan budget", async () => {
      clock.advance(3600);
      const basic = crypto.randomUUID();
      const pro = crypto.randomUUID();
      const login = (tenant: string, plan: string) => request(app.url).post('/api/v1/login').set('X-Tenant', tenant).set('X-Plan', plan);

      for (let i = 1; i <= 3; i++) {
        const response = await login(basic, 'basic');
        expect(response.status).toBe(200);
        // The endpoint's limit is tighter than the global one, so the headers report it.
        expect(limitHeaders(response)).toEqual({
          limit: '3',
          remaining: String(3 - i),
          reset: '60',
          policy: '3;w=60',
          retryAfter: undefined,
        });
      }
      clock.advance(20);
      const refused = await login(basic, 'basic');
      expect(refused.status).toBe(429);
      expect(limitHeaders(refused)).toEqual({ limit: '3', remaining: '0', reset: '40', policy: '3;w=60', retryAfter: '40' });
      expect(refused.body).toEqual({
        type: 'urn:sesame:error:rate_limited',
        title: 'Too Many Requests',
        status: 429,
        detail: 'This endpoint allows 3 requests per minute for the tenant; retry in 40 seconds',
        code: 'rate_limited',
        instance: '/api/v1/login',
        scope: 'endpoint',
        window: 'minute',
        limit: 3,
        retryAfter: 40,
      });

      // Another tenant (another plan) has its own budget; so has another endpoint.
      for (let i = 1; i <= 5; i++) expect((await login(pro, 'pro')).status).toBe(200);
      expect((await login(pro, 'pro')).status).toBe(429);
      expect((await request(app.url).post('/api/v1/verify').set('X-Tenant', basic).set('X-Plan', 'basic')).status).toBe(200);

      // Endpoints with one name share one budget.
      expect((await request(app.url).post('/api/v1/revoke').set('X-Tenant', basic).set('X-Plan', 'basic')).status).toBe(200);
      expect((await request(app.url).post('/api/v1/verify').set('X-Tenant', basic).set('X-Plan', 'basic')).status).toBe(200);
      expect((await request(app.url).post('/api/v1/revoke').set('X-Tenant', basic).set('X-Plan', 'basic')).status).toBe(429);

      // Not charged to the plan budget.
      const usage = await app.app.get(PlanUsageService).usage(basic, 'basic');
      expect(usage.map((window) => window.used)).toEqual([0, 0, 0]);
    });

    it("keys 'ip' endpoints by client IP with PAGE_RATE_LIMIT; routes without @EndpointLimit are not limited by the guard", async () => {
      clock.advance(3600);
      for (let i = 1; i <= 2; i++)
        expect((await request(app.url).get('/api/v1/page').set('X-Forwarded-For', `203.0.113.${i}`)).status).toBe(200);
      const refused = await request(app.url).get('/api/v1/page');
      expect(refused.status).toBe(429);
      expect(refused.body.detail).toBe('This endpoint allows 2 requests per minute from this address; retry in 60 seconds');
      expect(limitHeaders(refused)).toEqual({ limit: '2', remaining: '0', reset: '60', policy: '2;w=60', retryAfter: '60' });

      for (let i = 1; i <= 5; i++) {
        const open = await request(app.url).get('/api/v1/open');
        expect(open.status).toBe(200);
        expect(open.headers['ratelimit-limit']).toBe('1000');
      }
    });

    it("falls back to the per-IP limit when a 'tenant' endpoint has no identified caller", async () => {
      clock.advance(3600);
      for (let i = 1; i <= 2; i++) expect((await request(app.url).post('/api/v1/login')).status).toBe(200);
      const refused = await request(app.url).post('/api/v1/login');
      expect(refused.status).toBe(429);
      expect(refused.body.detail).toBe('This endpoint allows 2 requests per minute from this address; retry in 60 seconds');
    });
  });
});

describe('the platform key', () => {
  it('is exempt from plan limits', async () => {
    const api = await startManagementApi({ env: { PLAN_LIMITS: JSON.stringify({ free: { minute: 1, hour: 1, day: 1 } }) } });
    try {
      const tenant = await createTenant(api.url, 'free');
      for (let i = 0; i < 5; i++) {
        const response = await request(api.url)
          .get(`/api/v2/tenant/${tenant.tenantId}`)
          .set('Authorization', `Bearer ${process.env.PLATFORM_API_KEY}`);
        expect(response.status).toBe(200);
      }
      expect((await request(api.url).get('/api/v2/tenant').set('Authorization', `Bearer ${tenant.apiKey}`)).status).toBe(200);
      expect((await request(api.url).get('/api/v2/tenant').set('Authorization', `Bearer ${tenant.apiKey}`)).status).toBe(429);
    } finally {
      await api.close();
    }
  });
});
