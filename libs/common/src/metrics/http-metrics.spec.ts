import { Controller, ExecutionContext, Get, Type } from '@nestjs/common';
import { parseEnvironment } from '../config/parse-environment';
import { HttpMetricsGuard } from './http-metrics';

@Controller({ path: 'organization', version: '2' })
class OrganizationController {
  @Get(':id') read() {}
}

/** Inherits OrganizationController's handler (the same function) under another path. */
@Controller({ path: 'tenant', version: '2' })
class TenantController extends OrganizationController {}

const config = parseEnvironment({ DATABASE_URL: 'postgres://localhost/unit', SECRETS_KEY: '00'.repeat(32) });

function routeLabel(guard: HttpMetricsGuard, controller: Type): unknown {
  const request = {};
  const context = {
    getType: () => 'http',
    getHandler: () => OrganizationController.prototype.read,
    getClass: () => controller,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
  guard.canActivate(context);
  return (request as Record<symbol, unknown>)[Symbol.for('sesame.metricsRoute')];
}

describe('HttpMetricsGuard', () => {
  it("labels a request with its route as Nest knows it, an inherited handler with its own controller's path", () => {
    const guard = new HttpMetricsGuard(config);
    expect(routeLabel(guard, OrganizationController)).toBe('/api/v2/organization/:id');
    expect(routeLabel(guard, TenantController)).toBe('/api/v2/tenant/:id');
    expect(routeLabel(guard, OrganizationController)).toBe('/api/v2/organization/:id');
  });
});
