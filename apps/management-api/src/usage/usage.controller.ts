import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { ProblemDetails, validationFailed } from '@sesame/common';
import { CurrentPrincipal, TenantScopedPrincipal } from '@sesame/guards';
import { PlanUsageService } from '@sesame/throttler';
import { DEFAULT_GRANULARITY, USAGE_GRANULARITIES, USAGE_METRICS, UsageHistory } from '@sesame/usage';
import { Access, CurrentTenantId } from '../access/access.decorator';
import { ManagementErrors } from '../access/management-errors';
import { UsageCountsResponse, UsageHistoryQuery, UsageHistoryResponse, UsagePointResponse } from './usage-history.dto';
import { TenantUsageResponse, WindowUsageResponse } from './usage.dto';

const REDIS_DOWN = { type: ProblemDetails, description: 'Redis, which holds the counters, is unreachable (`rate_limiter_unavailable`).' };

@ApiTags('Tenants')
@Controller({ path: 'tenant/usage', version: '2' })
export class UsageController {
  constructor(
    private readonly usage: PlanUsageService,
    private readonly history: UsageHistory,
  ) {}

  @Get()
  @Access({ role: 'viewer', organizationKeys: true })
  @ApiOperation({
    summary: "Requests used and left in each window of the tenant's plan (tenant or organization key, members)",
    description:
      "Counted like any other request of a key: the answer includes this request (a member's request is not counted). See docs/rate-limits.md.",
  })
  @ApiOkResponse({ type: TenantUsageResponse })
  @ApiServiceUnavailableResponse(REDIS_DOWN)
  @ManagementErrors()
  async get(@CurrentPrincipal() principal: TenantScopedPrincipal): Promise<TenantUsageResponse> {
    const { tenantId, plan } = principal;
    const windows = await this.usage.usage(tenantId, plan);
    const byName = Object.fromEntries(windows.map((window) => [window.name, WindowUsageResponse.from(window)]));
    return { tenantId, plan, windows: byName as unknown as TenantUsageResponse['windows'] };
  }

  @Get('history')
  @Access({ role: 'viewer', organizationKeys: true })
  @ApiOperation({
    summary: "The tenant's usage over the last 24 hours or 30 days (tenant or organization key, members)",
    description: 'Requests of keys and of members, logins and login e-mails, per minute, hour or UTC day, from counters kept in Redis.',
  })
  @ApiOkResponse({ type: UsageHistoryResponse })
  @ApiServiceUnavailableResponse({
    type: ProblemDetails,
    description: 'Redis, which holds the counters, is unreachable (`usage_unavailable`).',
  })
  @ManagementErrors()
  async getHistory(@CurrentTenantId() tenantId: string, @Query() query: UsageHistoryQuery): Promise<UsageHistoryResponse> {
    const kept = USAGE_GRANULARITIES[query.range];
    const granularity = query.granularity ?? DEFAULT_GRANULARITY[query.range];
    if (!kept.includes(granularity)) {
      throw validationFailed([
        { field: 'granularity', message: `granularity must be one of ${kept.join(', ')} for the range ${query.range}` },
      ]);
    }
    const points = (await this.history.read(tenantId, query.range, granularity)).map(UsagePointResponse.from);
    return { tenantId, range: query.range, granularity, points, totals: totalsOf(points) };
  }
}

function totalsOf(points: UsageCountsResponse[]): UsageCountsResponse {
  const totals = Object.fromEntries(USAGE_METRICS.map((metric) => [metric, 0])) as unknown as UsageCountsResponse;
  for (const point of points) for (const metric of USAGE_METRICS) totals[metric] += point[metric];
  return totals;
}
