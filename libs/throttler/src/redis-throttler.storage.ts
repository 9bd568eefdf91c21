import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { Clock, REDIS, SESAME_CONFIG, SesameConfig, WindowName } from '@sesame/common';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { BucketCheck, HitResult, parseScriptReplies, SlidingWindowStore, toSeconds, WindowSpec } from './rate-limit';
import { SLIDING_WINDOW_SCRIPT } from './sliding-window.script';

const COMMAND = 'sesameSlidingWindow';

/** @nestjs/throttler's ThrottlerStorageRecord (not exported from its index). */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

type ScriptClient = Redis & {
  [COMMAND](keyCount: number, ...keysThenArguments: (string | number)[]): Promise<unknown>;
};

/**
 * @nestjs/throttler's storage, in Redis: one sliding-window log per bucket, checked and updated
 * by one Lua script call per request, for all the buckets the request is counted in (see
 * sliding-window.script.ts). Keys live under REDIS_PREFIX as
 * `<prefix>:throttle:{<tenant:id | ip:address>}:<group>[:<endpoint>]`, where the hash tag is the tenant or the address, so a
 * bucket's key maps to one Redis Cluster slot. `now` comes from the app's Clock, so every
 * instance must keep its clock in sync (NTP), and tests move a ManualClock instead of sleeping.
 *
 * When Redis is unreachable the shared client fails a command at once (no offline queue) or
 * after REDIS_COMMAND_TIMEOUT_MS; the guards answer 503 then.
 */
@Injectable()
export class RedisThrottlerStorage implements ThrottlerStorage, SlidingWindowStore, OnModuleInit {
  private readonly prefix: string;
  private readonly startupWaitMs: number;
  /** Makes every request's member unique across instances without asking Redis for a sequence. */
  private readonly instance = randomBytes(6).toString('base64url');
  private sequence = 0;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SESAME_CONFIG) config: SesameConfig,
    private readonly clock: Clock,
  ) {
    this.prefix = `${config.redis.prefix}:throttle:`;
    this.startupWaitMs = config.redis.commandTimeoutMs * 2;
    if (typeof (redis as unknown as Partial<ScriptClient>)[COMMAND] !== 'function') {
      // EVALSHA, falling back to EVAL when Redis lost its script cache (a restart); the key count comes first.
      redis.defineCommand(COMMAND, { lua: SLIDING_WINDOW_SCRIPT });
    }
  }

  /**
   * Lets the shared client finish connecting before the app listens: without an offline queue,
   * the first requests would otherwise answer 503. Bounded, and never fatal: an app started
   * while Redis is down answers 503 on throttled routes until Redis is back.
   */
  async onModuleInit(): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, this.startupWaitMs);
      this.redis.once('ready', done);
    });
  }

  /** The full Redis key of a bucket. */
  keyOf(bucket: string): string {
    return this.prefix + bucket;
  }

  async hit(bucket: string, windows: WindowSpec[], nowMs: number): Promise<HitResult> {
    return (await this.run([{ bucket, windows }], nowMs, '1'))[0];
  }

  hitAll(checks: BucketCheck[], nowMs: number): Promise<HitResult[]> {
    return this.run(checks, nowMs, '1');
  }

  async peek(bucket: string, windows: WindowSpec[], nowMs: number): Promise<HitResult> {
    return (await this.run([{ bucket, windows }], nowMs, '0'))[0];
  }

  /**
   * ThrottlerStorage: one window, for @nestjs/throttler's own ThrottlerGuard and @Throttle().
   * A refused request is not counted (rolling window, no extra block duration).
   */
  async increment(key: string, ttl: number, limit: number, _blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const window: WindowSpec = { name: throttlerName as WindowName, limit, lengthMs: ttl };
    const result = await this.hit(`{${key}}:${throttlerName}`, [window], this.clock.now().getTime());
    const state = result.windows[0];
    const seconds = toSeconds(state.resetMs);
    return {
      totalHits: result.allowed ? state.used : state.used + 1,
      timeToExpire: seconds,
      isBlocked: !result.allowed,
      timeToBlockExpire: result.allowed ? 0 : seconds,
    };
  }

  private async run(checks: BucketCheck[], nowMs: number, consume: '0' | '1'): Promise<HitResult[]> {
    const member = `${nowMs}:${this.instance}:${(this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER)}`;
    const windows = checks.flatMap((check) => [
      check.windows.length,
      ...check.windows.flatMap((window) => [window.lengthMs, window.limit]),
    ]);
    const reply = await (this.redis as ScriptClient)[COMMAND](
      checks.length,
      ...checks.map((check) => this.keyOf(check.bucket)),
      Math.floor(nowMs),
      consume,
      member,
      ...windows,
    );
    return parseScriptReplies(reply, checks);
  }
}
