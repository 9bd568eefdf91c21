import { ExecutionContext } from '@nestjs/common';
import { ThrottlerModuleOptions, ThrottlerOptions, ThrottlerStorage } from '@nestjs/throttler';
import { Plan, SesameConfig, WindowName, WINDOWS } from '@sesame/common';
import { callerTenant, principalTenant, ThrottledRequest } from './caller';
import { THROTTLER_GROUPS } from './decorators';
import { endpointKeyedByTenant } from './endpoint-throttler.guard';
import { WindowSpec } from './rate-limit';
import { throttlerName } from './sliding-window.guard';

const requestOf = (context: ExecutionContext) => context.switchToHttp().getRequest<ThrottledRequest>();

/** The plan's windows, with lengths from RATE_LIMIT_WINDOWS and limits from PLAN_LIMITS. */
export function planWindows(config: SesameConfig, plan: Plan): WindowSpec[] {
  return WINDOWS.map((name) => ({ name, limit: config.limits.plans[plan][name], lengthMs: windowMs(config, name) }));
}

export function windowMs(config: SesameConfig, window: WindowName): number {
  return config.limits.windowSeconds[window] * 1000;
}

/**
 * ThrottlerModule's options: the storage and every named throttler, `<group>-<window>`.
 * - global-minute: GLOBAL_RATE_LIMIT per client IP.
 * - plan-minute, plan-hour, plan-day: PLAN_LIMITS of the caller's plan, per tenant.
 * - endpoint-minute: ENDPOINT_LIMITS[plan] per tenant, or PAGE_RATE_LIMIT per IP.
 * - member-minute: MEMBER_RATE_LIMIT per console member.
 */
export function throttlerModuleOptions(config: SesameConfig, storage: ThrottlerStorage): ThrottlerModuleOptions {
  const minute = windowMs(config, 'minute');
  const planThrottlers: ThrottlerOptions[] = WINDOWS.map((window) => ({
    name: throttlerName(THROTTLER_GROUPS.plan, window),
    ttl: windowMs(config, window),
    limit: (context: ExecutionContext) => config.limits.plans[principalTenant(requestOf(context))!.plan][window],
  }));
  return {
    storage,
    throttlers: [
      { name: throttlerName(THROTTLER_GROUPS.global, 'minute'), ttl: minute, limit: config.limits.globalPerIp },
      ...planThrottlers,
      {
        name: throttlerName(THROTTLER_GROUPS.endpoint, 'minute'),
        ttl: minute,
        limit: (context: ExecutionContext) =>
          endpointKeyedByTenant(context) ? config.limits.endpoints[callerTenant(requestOf(context))!.plan] : config.limits.pages,
      },
      { name: throttlerName(THROTTLER_GROUPS.member, 'minute'), ttl: minute, limit: config.limits.memberPerMinute },
    ],
  };
}
