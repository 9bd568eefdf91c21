import { ExecutionContext, Inject, Logger, Optional, Type } from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  Resolvable,
  ThrottlerGuard,
  ThrottlerModuleOptions,
  ThrottlerOptions,
  ThrottlerStorage,
} from '@nestjs/throttler';
import { Clock, Handler, problem, ProblemException, RouteMemo, SesameMetrics, WindowName, WINDOWS } from '@sesame/common';
import { callerTenant, ThrottledRequest } from './caller';
import {
  BucketCheck,
  HitResult,
  isSlidingWindowStore,
  LimitScope,
  rateLimitHeaders,
  retryAfterMs,
  SlidingWindowStore,
  tightestWindow,
  toSeconds,
  WindowSpec,
  WindowState,
} from './rate-limit';

// @nestjs/throttler's metadata keys (its decorators write them; its index does not export them).
const THROTTLER_SKIP = 'THROTTLER:SKIP';
const THROTTLER_LIMIT = 'THROTTLER:LIMIT';
const THROTTLER_TTL = 'THROTTLER:TTL';

/** What this request's RateLimit headers currently report (several guards may count one request). */
const REPORTED = Symbol('sesame:rate-limit-reported');
/** Checks put off until the next limit guard, to go to Redis with its own (SlidingWindowGuard.mayDefer). */
const DEFERRED = Symbol('sesame:rate-limit-deferred');

/** A guard's check of one bucket of the request: the guard words its refusal and reports its headers. */
interface GuardCheck extends BucketCheck {
  guard: SlidingWindowGuard;
  context: ExecutionContext;
}

type ReportingRequest = ThrottledRequest & { [REPORTED]?: WindowState; [DEFERRED]?: GuardCheck[] };

/** One of a guard's windows as a route's decorators leave it: its limit and length may still depend on the request. */
interface RouteLimit {
  throttler: ThrottlerOptions;
  name: WindowName;
  limit: Resolvable<number>;
  ttl: Resolvable<number>;
}

/** A throttler's name is `<group>-<window>`, e.g. `plan-hour`. */
export function throttlerName(group: string, window: WindowName): string {
  return `${group}-${window}`;
}

/** A bucket's name: `{<tracker>}:<group>`, hash-tagged by tenant or address for Redis Cluster. */
export function bucketKey(tracker: string, group: string): string {
  return `{${tracker}}:${group}`;
}

/** The 503 every throttled route answers while Redis cannot be reached. */
export function rateLimiterUnavailable(): ProblemException {
  return problem('rate_limiter_unavailable', 'Rate limits cannot be checked right now, so the request was not processed; retry shortly', {
    headers: { 'Retry-After': '1' },
  });
}

/**
 * @nestjs/throttler's ThrottlerGuard, counting all windows of a group (say the plan's minute, hour
 * and day) at once: one bucket per tracker, one atomic Lua script per request in Redis, and the
 * request counted only when every window has room. Its throttlers come from ThrottlerModule's
 * options (named `<group>-<window>`, limit and ttl resolvable per request but synchronously, overridable with
 * @Throttle()); @SkipThrottle({ <group>: true }) or ({ '<group>-<window>': true }) skips them.
 *
 * Every counted response carries `RateLimit-Limit`, `-Remaining`, `-Reset` and `-Policy` for
 * the tightest window of all limits the request passed; a refused one is a 429 problem with
 * `Retry-After`, thrown before any handler runs.
 *
 * A guard may put its check off (mayDefer) so that the next limit guard sends it to Redis with its
 * own, in one script call: the buckets are still counted in guard order, and a refusal is worded by
 * the guard whose limit refused.
 */
export abstract class SlidingWindowGuard extends ThrottlerGuard {
  /** The throttler group this guard enforces. */
  protected abstract readonly group: string;
  protected abstract readonly scope: LimitScope;
  protected readonly log = new Logger('Throttler');
  /** Counts refusals (sesame_rate_limited_total) when the app has MetricsModule. */
  @Optional() @Inject(SesameMetrics) protected readonly metrics?: SesameMetrics;
  private store: SlidingWindowStore;
  /** This guard's windows as each route's @SkipThrottle() and @Throttle() leave them, in window order. */
  private readonly routeLimits = new RouteMemo((handler, classRef) => this.readRouteLimits([handler, classRef]));

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    protected readonly adapterHost: HttpAdapterHost,
    protected readonly clock: Clock,
  ) {
    super(options, storage, reflector);
    if (!isSlidingWindowStore(storage)) throw new Error('The throttler storage must be a sliding-window store (RedisThrottlerStorage)');
    this.store = storage;
  }

  /** Keeps only this guard's throttlers, in window order. */
  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    this.throttlers = this.throttlers
      .filter((throttler) => this.windowName(throttler) !== null)
      .sort((a, b) => WINDOWS.indexOf(this.windowName(a)!) - WINDOWS.indexOf(this.windowName(b)!));
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    // Guards used with @UseGuards() may be created outside the module's lifecycle.
    if (!this.throttlers) await this.onModuleInit();
    const request = context.switchToHttp().getRequest<ReportingRequest>();
    const own = this.checkOf(context, request);
    if (own && this.mayDefer(context)) {
      (request[DEFERRED] ??= []).push(own);
      return true;
    }
    const checks = [...(request[DEFERRED] ?? []), ...(own ? [own] : [])];
    delete request[DEFERRED];
    if (checks.length) await this.count(request, checks);
    return true;
  }

  /**
   * Whether this guard's check may wait for the next limit guard's, to go to Redis in one call.
   * Only when that guard is sure to run for this request and nothing before it can answer the
   * request or do costly work for it. Never, unless a subclass knows so.
   */
  protected mayDefer(_context: ExecutionContext): boolean {
    return false;
  }

  /** Whether this request is not counted by this guard at all (say, no tenant to count it against). */
  protected skips(_context: ExecutionContext, _request: ThrottledRequest): boolean {
    return false;
  }

  /** Whose bucket the request is counted in: `ip:<address>`, `tenant:<id>`, … */
  protected abstract trackerOf(request: ThrottledRequest, context: ExecutionContext): string;

  /**
   * This guard's check of the request, or null when it does not count it. Synchronous: it runs on
   * every request, and the route's metadata is read once per route (routeLimits).
   */
  private checkOf(context: ExecutionContext, request: ReportingRequest): GuardCheck | null {
    const limits = this.routeLimits.of(context);
    if (limits.length === 0 || this.skips(context, request)) return null;
    const windows: WindowSpec[] = [];
    for (const { throttler, name, limit, ttl } of limits) {
      if ((throttler.skipIf ?? this.commonOptions.skipIf)?.(context)) continue;
      windows.push({
        name,
        limit: resolvePositive(context, limit, `${throttler.name}.limit`),
        lengthMs: resolvePositive(context, ttl, `${throttler.name}.ttl`),
      });
    }
    if (windows.length === 0) return null;
    return { guard: this, context, bucket: this.generateKey(context, this.trackerOf(request, context), this.group), windows };
  }

  private readRouteLimits(targets: [Handler, Type]): RouteLimit[] {
    if (this.isSkipped(targets, this.group)) return [];
    return this.throttlers
      .filter((throttler) => !this.isSkipped(targets, throttler.name!))
      .map((throttler) => ({
        throttler,
        name: this.windowName(throttler)!,
        limit: this.reflector.getAllAndOverride<Resolvable<number>>(THROTTLER_LIMIT + throttler.name, targets) ?? throttler.limit,
        ttl: this.reflector.getAllAndOverride<Resolvable<number>>(THROTTLER_TTL + throttler.name, targets) ?? throttler.ttl,
      }));
  }

  /** Counts the request in every bucket of `checks`, in order, in one script call; throws the first refusal. */
  private async count(request: ReportingRequest, checks: GuardCheck[]): Promise<void> {
    let results: HitResult[];
    try {
      results = await this.store.hitAll(checks, this.clock.now().getTime());
    } catch (error) {
      this.log.warn(`Rate limits unavailable: ${error instanceof Error ? error.message : String(error)}`);
      throw rateLimiterUnavailable();
    }
    results.forEach((result, i) => {
      const { guard, context } = checks[i];
      if (!result.allowed) {
        guard.metrics?.rateLimited.inc({ scope: guard.scope, plan: callerTenant(request)?.plan ?? 'none' });
        throw guard.refusal(context, result);
      }
      guard.report(request, context.switchToHttp().getResponse(), result.windows);
    });
  }

  /** The bucket of a tracker: `{<tracker>}:<group>`, hash-tagged by tenant or address for Redis Cluster. */
  protected override generateKey(_context: ExecutionContext, tracker: string, group: string): string {
    return bucketKey(tracker, group);
  }

  /** The problem a refused request answers with; `Retry-After` is when every exhausted window has room again. */
  protected refusal(context: ExecutionContext, result: HitResult): ProblemException {
    const window = tightestWindow(result.windows);
    const retryAfter = Math.max(1, toSeconds(retryAfterMs(result.windows)));
    return problem('rate_limited', `${this.describeLimit(context, window)}; retry in ${retryAfter} seconds`, {
      extensions: { scope: this.scope, window: window.name, limit: window.limit, retryAfter },
      headers: { 'Retry-After': String(retryAfter), ...rateLimitHeaders(result.windows) },
    });
  }

  /** The first half of a refusal's detail, e.g. "The tenant's plan allows 50 requests per hour". */
  protected abstract describeLimit(context: ExecutionContext, window: WindowState): string;

  /** Sets the RateLimit headers unless an earlier guard already reported a tighter window. */
  private report(request: ReportingRequest, response: unknown, windows: WindowState[]): void {
    const window = tightestWindow(windows);
    const previous = request[REPORTED];
    if (previous && tightestWindow([previous, window]) === previous) return;
    request[REPORTED] = window;
    const adapter = this.adapterHost.httpAdapter;
    for (const [name, value] of Object.entries(rateLimitHeaders(windows))) adapter.setHeader(response, name, value);
  }

  private isSkipped(targets: [Handler, Type], name: string): boolean {
    return this.reflector.getAllAndOverride<boolean>(THROTTLER_SKIP + name, targets) === true;
  }

  private windowName(throttler: ThrottlerOptions): WindowName | null {
    const prefix = `${this.group}-`;
    const name = throttler.name ?? '';
    const window = name.startsWith(prefix) ? name.slice(prefix.length) : '';
    return (WINDOWS as readonly string[]).includes(window) ? (window as WindowName) : null;
  }
}

/** A limit or window length as the route resolves it for this request; limits are computed synchronously. */
function resolvePositive(context: ExecutionContext, value: Resolvable<number>, what: string): number {
  const resolved = typeof value === 'function' ? value(context) : value;
  if (resolved instanceof Promise) throw new Error(`${what} must be resolved synchronously`);
  const number = Number(resolved);
  if (!Number.isFinite(number) || number <= 0) throw new Error(`Invalid ${what}: ${String(resolved)}`);
  return Math.floor(number);
}
