import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottledRequest } from './caller';
import { clientIp } from './client-ip';
import { THROTTLER_GROUPS } from './decorators';
import { WindowState } from './rate-limit';
import { SlidingWindowGuard } from './sliding-window.guard';

/**
 * The global limit (a security measure): GLOBAL_RATE_LIMIT requests per minute per client IP,
 * on every route of the app. Register it as an APP_GUARD before any authenticating guard, so a
 * flood is refused before any authentication work.
 */
@Injectable()
export class GlobalIpThrottlerGuard extends SlidingWindowGuard {
  protected readonly group = THROTTLER_GROUPS.global;
  protected readonly scope = 'global' as const;

  protected override async getTracker(request: ThrottledRequest): Promise<string> {
    return `ip:${clientIp(request)}`;
  }

  protected describeLimit(_context: ExecutionContext, window: WindowState): string {
    return `Too many requests from this address: at most ${window.limit} per ${window.name}`;
  }
}
