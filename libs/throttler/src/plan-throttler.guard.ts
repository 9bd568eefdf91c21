import { ExecutionContext, Injectable } from '@nestjs/common';
import { principalTenant, ThrottledRequest } from './caller';
import { THROTTLER_GROUPS } from './decorators';
import { WindowState } from './rate-limit';
import { SlidingWindowGuard } from './sliding-window.guard';

/**
 * The tenant's plan limits on the management API: every request made with one of the tenant's
 * keys (tenant keys and its organizations' keys) counts against one budget per minute, hour and
 * day, shared by every instance. Register it as an APP_GUARD after ApiKeyGuard, which
 * identifies the tenant. The platform key and @Public() routes are not counted.
 */
@Injectable()
export class PlanThrottlerGuard extends SlidingWindowGuard {
  protected readonly group = THROTTLER_GROUPS.plan;
  protected readonly scope = 'plan' as const;

  /** @Public() routes never get a principal, so they are skipped here too. */
  protected override skips(_context: ExecutionContext, request: ThrottledRequest): boolean {
    return principalTenant(request) === null;
  }

  protected trackerOf(request: ThrottledRequest): string {
    return planTracker(principalTenant(request)!.tenantId);
  }

  protected describeLimit(_context: ExecutionContext, window: WindowState): string {
    return `The tenant's plan allows ${window.limit} requests per ${window.name}`;
  }
}

/** The tracker (and Redis hash tag) of a tenant. */
export function planTracker(tenantId: string): string {
  return `tenant:${tenantId}`;
}
