import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { Clock, REDIS, SESAME_CONFIG, SesameConfig, WindowName } from '@sesame/common';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { HitResult, parseScriptReply, SlidingWindowStore, toSeconds, WindowSpec } from './rate-limit';
import { SLIDING_WINDOW_SCRIPT } from './sliding-window.script';

const COMMAND = 'sesameSlidingWindow';

/** @nestjs/throttler's ThrottlerStorageRecord (not exported from its index). */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

type ScriptClient = Redis & {
  [COMMAND](key: string, now: number, consume: '0' | '1', member: string, count: number, ...windows: number[]): Promise<unknown>;
};

/**
 * @nestjs/throttler's storage, in Redis: one sliding-window log per bucket, checked and updated
 * by one Lua script per request (see sliding-window.script.ts). Keys live under REDIS_PREFIX as
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
      // EVALSHA, falling back to EVAL when Redis lost its script cache (a restart).
      redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: SLIDING_WINDOW_SCRIPT });
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

  hit(bucket: string, windows: WindowSpec[], nowMs: number): Promise<HitResult> {
    return this.run(bucket, windows, nowMs, '1');
  }

  peek(bucket: string, windows: WindowSpec[], nowMs: number): Promise<HitResult> {
    return this.run(bucket, windows, nowMs, '0');
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

  private async run(bucket: string, windows: WindowSpec[], nowMs: number, consume: '0' | '1'): Promise<HitResult> {
    const args = windows.flatMap((window) => [window.lengthMs, window.limit]);
    const member = `${nowMs}:${this.instance}:${(this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER)}`;
    const reply = await (this.redis as ScriptClient)[COMMAND](
      this.keyOf(bucket),
      Math.floor(nowMs),
      consume,
      member,
      windows.length,
      ...args,
    );
    return parseScriptReply(reply, windows);
  }
}
