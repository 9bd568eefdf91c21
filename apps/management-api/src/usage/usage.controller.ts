import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { ProblemDetails } from '@sesame/common';
import { CurrentPrincipal, Principal } from '@sesame/guards';
import { PlanUsageService } from '@sesame/throttler';
import { requireTenantScope } from '../access/access';
import { ManagementErrors } from '../access/management-errors';
import { TenantUsageResponse, WindowUsageResponse } from './usage.dto';

@ApiTags('Tenants')
@Controller({ path: 'tenant/usage', version: '2' })
export class UsageController {
  constructor(private readonly usage: PlanUsageService) {}

  @Get()
  @ApiOperation({
    summary: "Requests used and left in each window of the tenant's plan (tenant or organization key)",
    description: 'Counted like any other request: the answer includes this request. See docs/rate-limits.md.',
  })
  @ApiOkResponse({ type: TenantUsageResponse })
  @ApiServiceUnavailableResponse({ type: ProblemDetails, description: 'Redis, which holds the counters, is unreachable (`rate_limiter_unavailable`).' })
  @ManagementErrors({ badRequest: false })
  async get(@CurrentPrincipal() principal: Principal): Promise<TenantUsageResponse> {
    const { tenantId, plan } = requireTenantScope(principal);
    const windows = await this.usage.usage(tenantId, plan);
    const byName = Object.fromEntries(windows.map((window) => [window.name, WindowUsageResponse.from(window)]));
    return { tenantId, plan, windows: byName as unknown as TenantUsageResponse['windows'] };
  }
}
