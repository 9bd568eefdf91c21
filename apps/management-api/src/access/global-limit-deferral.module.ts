import { ExecutionContext, Global, Injectable, Module } from '@nestjs/common';
import { hasBody } from '@sesame/common';
import { ApiKeyAuthModule, ApiKeyGuard } from '@sesame/guards';
import { GLOBAL_LIMIT_DEFERRAL, GlobalLimitDeferral } from '@sesame/throttler';

/**
 * The per-IP global limit waits for the plan's, and both go to Redis in one script call, when
 * nothing between them can answer the request or send it to Postgres: JsonBodyGuard passes a
 * request without a body, and ApiKeyGuard one whose key its cache holds (PlanThrottlerGuard, right
 * after it, then counts both). Any other request (a body to check, an unknown key, a member's
 * token) is counted against the global limit first, as before: a flood of unknown keys is refused
 * before it reaches Postgres.
 */
@Injectable()
class CachedKeyDeferral implements GlobalLimitDeferral {
  constructor(private readonly apiKeys: ApiKeyGuard) {}

  mayWait(context: ExecutionContext): boolean {
    const { headers } = context.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined> }>();
    return !hasBody(headers) && this.apiKeys.passesFromCache(context);
  }
}

/** Provides GLOBAL_LIMIT_DEFERRAL to GlobalIpThrottlerGuard (global: the guard lives in ThrottlingModule). */
@Global()
@Module({
  imports: [ApiKeyAuthModule],
  providers: [{ provide: GLOBAL_LIMIT_DEFERRAL, useClass: CachedKeyDeferral }],
  exports: [GLOBAL_LIMIT_DEFERRAL],
})
export class GlobalLimitDeferralModule {}
