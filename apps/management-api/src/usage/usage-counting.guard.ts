import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { RequestWithPrincipal } from '@sesame/guards';
import { UsageCounter } from '@sesame/usage';

/**
 * Counts every management API request that got past authentication, the rate limits and the role
 * checks, for the usage history: requests of the tenant's API keys and of its members apart. The
 * count is tallied in memory (UsageCounter.tally): no Redis round trip per request.
 *
 * A guard that lets everything through, registered after every other APP_GUARD, rather than an
 * interceptor: it runs at the same moment, and a route without interceptors skips Nest's rxjs
 * pipeline altogether (the management reads are the API's hottest path).
 */
@Injectable()
export class UsageCountingGuard implements CanActivate {
  constructor(private readonly usage: UsageCounter) {}

  canActivate(context: ExecutionContext): true {
    const principal = context.switchToHttp().getRequest<RequestWithPrincipal>().principal;
    if (principal && principal.kind !== 'platform') {
      this.usage.tally(principal.tenantId, principal.kind === 'member' ? 'memberRequests' : 'apiRequests');
    }
    return true;
  }
}
