import { ExecutionContext, Injectable } from '@nestjs/common';
import { RouteMemo } from '@sesame/common';
import { callerTenant, isPublicClient, ThrottledRequest } from './caller';
import { clientIp } from './client-ip';
import { ENDPOINT_LIMIT, EndpointLimitMetadata, THROTTLER_GROUPS } from './decorators';
import { WindowState } from './rate-limit';
import { SlidingWindowGuard } from './sliding-window.guard';

const endpointLimits = new RouteMemo<EndpointLimitMetadata | undefined>(
  (handler, classRef) =>
    (Reflect.getMetadata(ENDPOINT_LIMIT, handler) as EndpointLimitMetadata | undefined) ??
    (Reflect.getMetadata(ENDPOINT_LIMIT, classRef) as EndpointLimitMetadata | undefined),
);

/** An endpoint's @EndpointLimit() metadata, if it has one (read once per route). */
export function endpointLimitOf(context: ExecutionContext): EndpointLimitMetadata | undefined {
  return endpointLimits.of(context);
}

/** Whether a request is counted per tenant (a tenant-keyed endpoint with an identified caller) or per IP. */
export function endpointKeyedByTenant(context: ExecutionContext): boolean {
  return endpointLimitOf(context)?.key === 'tenant' && callerTenant(context.switchToHttp().getRequest<ThrottledRequest>()) !== null;
}

/**
 * Per-endpoint limits, declared with @EndpointLimit('tenant' | 'ip'): ENDPOINT_LIMITS[plan] per
 * minute per tenant, or PAGE_RATE_LIMIT per minute per client IP. A public client (client_id
 * alone, no secret) is counted per tenant and client IP: knowing a native app's client_id must not
 * let one address use up the budget of every application of the tenant. Apply it with @UseGuards()
 * after the guard that identifies the caller (ClientAuthGuard); routes without @EndpointLimit()
 * pass untouched. These requests are not charged to the plan budget.
 */
@Injectable()
export class EndpointThrottlerGuard extends SlidingWindowGuard {
  protected readonly group = THROTTLER_GROUPS.endpoint;
  protected readonly scope = 'endpoint' as const;

  protected override skips(context: ExecutionContext): boolean {
    return endpointLimitOf(context) === undefined;
  }

  protected trackerOf(request: ThrottledRequest, context: ExecutionContext): string {
    const tenant = endpointLimitOf(context)?.key === 'tenant' ? callerTenant(request) : null;
    if (!tenant) return `ip:${clientIp(request)}`;
    return isPublicClient(request) ? `tenant:${tenant.tenantId}:ip:${clientIp(request)}` : `tenant:${tenant.tenantId}`;
  }

  /** One bucket per endpoint (or per @EndpointLimit name) and tracker. */
  protected override generateKey(context: ExecutionContext, tracker: string, group: string): string {
    const name = endpointLimitOf(context)?.name ?? `${context.getClass().name}.${context.getHandler().name}`;
    return `${super.generateKey(context, tracker, group)}:${name}`;
  }

  protected describeLimit(context: ExecutionContext, window: WindowState): string {
    if (!endpointKeyedByTenant(context)) return `This endpoint allows ${window.limit} requests per ${window.name} from this address`;
    return isPublicClient(context.switchToHttp().getRequest<ThrottledRequest>())
      ? `This endpoint allows ${window.limit} requests per ${window.name} for the tenant from this address`
      : `This endpoint allows ${window.limit} requests per ${window.name} for the tenant`;
  }
}
