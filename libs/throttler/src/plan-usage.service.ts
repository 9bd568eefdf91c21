import { Inject, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import { Clock, Plan, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { THROTTLER_GROUPS } from './decorators';
import { planTracker } from './plan-throttler.guard';
import { isSlidingWindowStore, SlidingWindowStore, WindowState } from './rate-limit';
import { planWindows } from './throttler-options';
import { bucketKey, rateLimiterUnavailable } from './sliding-window.guard';

/** Reads a tenant's plan budget without counting anything (GET /v2/tenant/usage). */
@Injectable()
export class PlanUsageService {
  private readonly store: SlidingWindowStore;

  constructor(
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
    private readonly clock: Clock,
  ) {
    if (!isSlidingWindowStore(storage)) throw new Error('The throttler storage must be a sliding-window store (RedisThrottlerStorage)');
    this.store = storage;
  }

  /** Requests counted and left in each window of the tenant's plan, right now. */
  async usage(tenantId: string, plan: Plan): Promise<WindowState[]> {
    try {
      const result = await this.store.peek(
        bucketKey(planTracker(tenantId), THROTTLER_GROUPS.plan),
        planWindows(this.config, plan),
        this.clock.now().getTime(),
      );
      return result.windows;
    } catch {
      throw rateLimiterUnavailable();
    }
  }
}
