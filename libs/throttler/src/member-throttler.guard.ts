import { ExecutionContext, Injectable } from '@nestjs/common';
import { memberTracker, ThrottledRequest } from './caller';
import { THROTTLER_GROUPS } from './decorators';
import { WindowState } from './rate-limit';
import { SlidingWindowGuard } from './sliding-window.guard';

/**
 * Console members' limit on the management API: MEMBER_RATE_LIMIT requests per minute per member,
 * instead of the plan's limits (members never draw on the budget the tenant's API keys share, and
 * the keys' budget never locks them out). Register it as an APP_GUARD after ApiKeyGuard.
 */
@Injectable()
export class MemberThrottlerGuard extends SlidingWindowGuard {
  protected readonly group = THROTTLER_GROUPS.member;
  protected readonly scope = 'member' as const;

  protected override skips(_context: ExecutionContext, request: ThrottledRequest): boolean {
    return memberTracker(request) === null;
  }

  protected trackerOf(request: ThrottledRequest): string {
    return memberTracker(request)!;
  }

  protected describeLimit(_context: ExecutionContext, window: WindowState): string {
    return `A console member may make ${window.limit} requests per ${window.name}`;
  }
}
