import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { REDIS, SESAME_CONFIG, SesameConfig, ShutdownDrain } from '@sesame/common';
import type Redis from 'ioredis';

/** A subscription to one attempt's changes, taken before its status is read so no change falls in between. */
export interface AttemptWatch {
  /** Resolves on the next change, or after `timeoutMs`, whichever comes first. */
  next(timeoutMs: number): Promise<void>;
  stop(): void;
}

const NOOP_WATCH: AttemptWatch = { next: () => Promise.resolve(), stop: () => undefined };

/**
 * Status changes of login attempts across auth-api instances, over Redis pub/sub: whoever changes
 * an attempt publishes on its channel; a held `?wait=` request listens on it. Waiting holds no
 * Postgres connection (the status is read before and after, each a short query). One subscriber
 * connection per instance, with a channel per attempt being waited on. Without Redis, a wait
 * answers at once (the caller polls again), and publishing is skipped. From the shutdown signal
 * on, held waits answer at once and new ones are not held, so that their clients ask again of an
 * instance that stays.
 */
@Injectable()
export class LoginAttemptEvents implements OnApplicationShutdown {
  private readonly logger = new Logger(LoginAttemptEvents.name);
  private subscriber: Redis | null = null;
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
    private readonly drain: ShutdownDrain,
  ) {
    drain.onStart(() => this.wakeAll());
  }

  async changed(loginAttemptId: string): Promise<void> {
    await this.redis
      .publish(this.channel(loginAttemptId), 'changed')
      .catch((error: Error) => this.logger.warn(`Could not publish a login attempt change: ${error.message}`));
  }

  async watch(loginAttemptId: string): Promise<AttemptWatch> {
    if (this.drain.draining) return NOOP_WATCH;
    const channel = this.channel(loginAttemptId);
    let wake: () => void = () => undefined;
    let changed = false;
    const listener = () => {
      changed = true;
      wake();
    };
    try {
      await this.subscribe(channel, listener);
    } catch (error) {
      this.logger.warn(`Cannot wait for login attempt changes: ${(error as Error).message}`);
      return NOOP_WATCH;
    }
    return {
      // Also when the drain started while the subscription was being made (before the listener was there to wake).
      next: (timeoutMs) =>
        changed || this.drain.draining
          ? Promise.resolve()
          : new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, timeoutMs);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            }),
      stop: () => {
        wake();
        void this.unsubscribe(channel, listener);
      },
    };
  }

  async onApplicationShutdown(): Promise<void> {
    this.wakeAll();
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  private wakeAll(): void {
    for (const listeners of this.listeners.values()) for (const listener of listeners) listener();
  }

  private channel(loginAttemptId: string): string {
    return `${this.config.redis.prefix}:login_attempt:${loginAttemptId}`;
  }

  private async subscribe(channel: string, listener: () => void): Promise<void> {
    const subscriber = await this.connection();
    const listeners = this.listeners.get(channel);
    if (listeners) {
      listeners.add(listener);
      return;
    }
    this.listeners.set(channel, new Set([listener]));
    try {
      await subscriber.subscribe(channel);
    } catch (error) {
      this.listeners.delete(channel);
      throw error;
    }
  }

  private async unsubscribe(channel: string, listener: () => void): Promise<void> {
    const listeners = this.listeners.get(channel);
    if (!listeners) return;
    listeners.delete(listener);
    if (listeners.size > 0) return;
    this.listeners.delete(channel);
    await this.subscriber?.unsubscribe(channel).catch(() => undefined);
  }

  /** The subscriber connection (a connection in subscriber mode can do nothing else), opened on first use. */
  private async connection(): Promise<Redis> {
    if (!this.subscriber) {
      this.subscriber = this.redis.duplicate();
      this.subscriber.on('error', () => undefined); // a wait then answers at once; see watch()
      this.subscriber.on('message', (channel: string) => {
        for (const listener of this.listeners.get(channel) ?? []) listener();
      });
    }
    if (this.subscriber.status !== 'ready') {
      const subscriber = this.subscriber;
      await new Promise<void>((resolve, reject) => {
        const wait = this.config.redis.commandTimeoutMs + this.config.redis.failoverWaitMs;
        const timer = setTimeout(() => reject(new Error('Redis subscriber not ready')), wait);
        subscriber.once('ready', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.subscriber;
  }
}
