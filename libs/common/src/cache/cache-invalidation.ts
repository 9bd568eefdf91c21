import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { SESAME_CONFIG } from '../config/config.module';
import { SesameConfig } from '../config/sesame-config';
import { REDIS } from '../redis/redis-token';

/**
 * What changed, by id only (never a secret, an address or a hash of either): every instance drops
 * what it cached of it. A message is a hint to forget, never data to trust, so a lost one costs
 * only the cache time (the TTL every cache keeps as the fallback while Redis is away).
 */
export type CacheInvalidation =
  /** A client secret was rotated or revoked, the application changed or deleted, or its access tokens revoked. */
  | { kind: 'application'; applicationId: string }
  /** The tenant's plan changed (cached with its clients, keys and members). */
  | { kind: 'tenant'; tenantId: string }
  /** An organization was changed, or deleted (its keys with it). */
  | { kind: 'organization'; organizationId: string }
  /** An API key was revoked. */
  | { kind: 'api-key'; apiKeyId: string }
  /** A member was removed or given another role. */
  | { kind: 'member'; memberId: string };

const ID_FIELD: Record<CacheInvalidation['kind'], string> = {
  application: 'applicationId',
  tenant: 'tenantId',
  organization: 'organizationId',
  'api-key': 'apiKeyId',
  member: 'memberId',
};

/** The one pub/sub channel of the deployment's instances (under REDIS_PREFIX, like every key of theirs). */
export function cacheInvalidationChannel(prefix: string): string {
  return `${prefix}:cache-invalidation`;
}

/** A message as published, or null for anything else on the channel. */
export function parseCacheInvalidation(raw: string): CacheInvalidation | null {
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof message !== 'object' || message === null) return null;
  const { kind } = message as { kind?: unknown };
  if (typeof kind !== 'string' || !Object.hasOwn(ID_FIELD, kind)) return null;
  const field = ID_FIELD[kind as CacheInvalidation['kind']];
  const id = (message as Record<string, unknown>)[field];
  return typeof id === 'string' && id.length > 0 && id.length <= 64 ? ({ kind, [field]: id } as CacheInvalidation) : null;
}

export type CacheInvalidationHandler = (message: CacheInvalidation) => void;

/**
 * Tells every instance (this one included) that something cached changed, over Redis pub/sub.
 * Publishers call `publish` after the change has committed; caches `subscribe` in their
 * constructor, and the app then listens on a connection of its own (a subscribed connection takes
 * no other commands). Redis being away never fails a request: publishing and listening log a
 * warning and the caches fall back to their TTL; listening resumes when Redis is back.
 */
@Injectable()
export class CacheInvalidationBus implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CacheInvalidationBus.name);
  private readonly channel: string;
  private readonly handlers: CacheInvalidationHandler[] = [];
  private subscriber: Redis | null = null;
  private subscribed: Promise<void> = Promise.resolve();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.channel = cacheInvalidationChannel(config.redis.prefix);
  }

  /** Called for every message, in the order of subscription (a later handler sees the earlier ones' work done). */
  subscribe(handler: CacheInvalidationHandler): void {
    this.handlers.push(handler);
  }

  /** Never throws: when Redis is away the other instances follow within their cache time. */
  async publish(message: CacheInvalidation): Promise<void> {
    try {
      await this.redis.publish(this.channel, JSON.stringify(message));
    } catch (error) {
      this.logger.warn(
        `Could not publish a cache invalidation (${message.kind}); other instances follow within their cache time: ${(error as Error).message}`,
      );
    }
  }

  /** Listens before the app takes requests, when anything subscribed (an app whose Redis is away still starts). */
  async onApplicationBootstrap(): Promise<void> {
    if (this.handlers.length === 0) return;
    // Subscribes again on every (re)connection itself, so a failed SUBSCRIBE is retried too.
    const subscriber = this.redis.duplicate({ lazyConnect: true, autoResubscribe: false });
    this.subscriber = subscriber;
    subscriber.on('error', () => undefined); // reported by the warnings below and the health checks
    subscriber.on('ready', () => (this.subscribed = this.listen(subscriber)));
    subscriber.on('message', (channel: string, raw: string) => this.deliver(channel, raw));
    try {
      await subscriber.connect();
    } catch (error) {
      this.logger.warn(
        `Cache invalidations are not received until Redis is reachable; caches fall back to their TTL: ${(error as Error).message}`,
      );
    }
    await this.subscribed;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  private async listen(subscriber: Redis): Promise<void> {
    try {
      await subscriber.subscribe(this.channel);
    } catch (error) {
      this.logger.warn(`Could not subscribe to cache invalidations; caches fall back to their TTL: ${(error as Error).message}`);
    }
  }

  private deliver(channel: string, raw: string): void {
    if (channel !== this.channel) return;
    const message = parseCacheInvalidation(raw);
    if (!message) return this.logger.warn('Ignored a malformed cache invalidation');
    for (const handler of this.handlers) handler(message);
  }
}
