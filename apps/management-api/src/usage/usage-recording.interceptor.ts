import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { RequestWithPrincipal } from '@sesame/guards';
import { UsageCounter } from '@sesame/usage';
import { Observable } from 'rxjs';

/**
 * Counts every management API request that got past authentication, the rate limits and the role
 * checks, for the usage history: requests of the tenant's API keys and of its members apart. The
 * count is tallied in memory (UsageCounter.tally): no Redis round trip per request.
 */
@Injectable()
export class UsageRecordingInterceptor implements NestInterceptor {
  constructor(private readonly usage: UsageCounter) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const principal = context.switchToHttp().getRequest<RequestWithPrincipal>().principal;
    if (principal && principal.kind !== 'platform') {
      this.usage.tally(principal.tenantId, principal.kind === 'member' ? 'memberRequests' : 'apiRequests');
    }
    return next.handle();
  }
}
