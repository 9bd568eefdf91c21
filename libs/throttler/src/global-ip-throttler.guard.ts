import { ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { ThrottledRequest } from './caller';
import { clientIp } from './client-ip';
import { THROTTLER_GROUPS } from './decorators';
import { WindowState } from './rate-limit';
import { SlidingWindowGuard } from './sliding-window.guard';

/**
 * Says when the global limit's check may wait for the caller's own limit (the plan's), to go to
 * Redis with it in one script call: only when the guards between them can neither answer the
 * request nor do costly work for it, and the caller's limit guard is sure to run. An app that
 * knows its guard chain provides it as GLOBAL_LIMIT_DEFERRAL in a global module.
 */
export interface GlobalLimitDeferral {
  mayWait(context: ExecutionContext): boolean;
}

export const GLOBAL_LIMIT_DEFERRAL = Symbol('GlobalLimitDeferral');

/**
 * The global limit (a security measure): GLOBAL_RATE_LIMIT requests per minute per client IP,
 * on every route of the app. Register it as an APP_GUARD before any authenticating guard, so a
 * flood is refused before any authentication work; where GLOBAL_LIMIT_DEFERRAL allows, its check
 * goes with the next limit guard's instead.
 */
@Injectable()
export class GlobalIpThrottlerGuard extends SlidingWindowGuard {
  protected readonly group = THROTTLER_GROUPS.global;
  protected readonly scope = 'global' as const;
  @Optional() @Inject(GLOBAL_LIMIT_DEFERRAL) private readonly deferral?: GlobalLimitDeferral;

  protected override mayDefer(context: ExecutionContext): boolean {
    return this.deferral?.mayWait(context) ?? false;
  }

  protected trackerOf(request: ThrottledRequest): string {
    return `ip:${clientIp(request)}`;
  }

  protected describeLimit(_context: ExecutionContext, window: WindowState): string {
    return `Too many requests from this address: at most ${window.limit} per ${window.name}`;
  }
}
