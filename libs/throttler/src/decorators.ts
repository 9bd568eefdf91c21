import { SetMetadata } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';

/** How an endpoint's own limit is keyed: per tenant of the authenticated caller, or per client IP. */
export type EndpointLimitKey = 'tenant' | 'ip';

export interface EndpointLimitOptions {
  /**
   * The bucket's name. Endpoints with the same name share one budget; by default each endpoint
   * (controller and handler) has its own.
   */
  name?: string;
}

export interface EndpointLimitMetadata extends EndpointLimitOptions {
  key: EndpointLimitKey;
}

export const ENDPOINT_LIMIT = 'sesame:endpoint-limit';

/**
 * Gives an endpoint its own limit, enforced by EndpointThrottlerGuard (apply it with
 * `@UseGuards(ClientAuthGuard, EndpointThrottlerGuard)`, after the guard that identifies the caller).
 *
 * - `'tenant'`: per tenant of `request.client` (ClientAuthGuard) or `request.principal` (API key),
 *   ENDPOINT_LIMITS[plan] requests per minute. A request with neither falls back to the `'ip'` limit.
 * - `'ip'`: per client IP, PAGE_RATE_LIMIT requests per minute (pages anyone can open).
 *
 * Such requests are not charged to the tenant's plan budget.
 */
export const EndpointLimit = (key: EndpointLimitKey, options: EndpointLimitOptions = {}) =>
  SetMetadata<string, EndpointLimitMetadata>(ENDPOINT_LIMIT, { key, ...options });

/** The throttler groups, as @nestjs/throttler's SkipThrottle() names them. */
export const THROTTLER_GROUPS = { global: 'global', plan: 'plan', endpoint: 'endpoint', member: 'member' } as const;

/** Exempts a route or controller from the tenant's plan budget (it stays under the global per-IP limit). */
export const SkipPlanLimit = () => SkipThrottle({ [THROTTLER_GROUPS.plan]: true });

/** Exempts a route or controller from the global per-IP limit. Use sparingly: that limit is a security measure. */
export const SkipGlobalLimit = () => SkipThrottle({ [THROTTLER_GROUPS.global]: true });
