import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { SESAME_CONFIG } from '../config/config.module';
import { SesameConfig } from '../config/sesame-config';
import { CacheInvalidationBus } from '../cache/cache-invalidation';
import { REDIS } from './redis-token';

export { REDIS } from './redis-token';

/**
 * Connection options shared by every Redis client of the apps: commands fail fast when Redis is
 * unreachable (no offline queue, bounded time), and the client keeps reconnecting in the
 * background so the apps recover by themselves.
 */
export function redisOptions(config: SesameConfig) {
  return {
    commandTimeout: config.redis.commandTimeoutMs,
    connectTimeout: config.redis.commandTimeoutMs * 2,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 2000),
    // Commands issued in the same tick by concurrent requests go out in one write.
    enableAutoPipelining: true,
    lazyConnect: false,
  };
}

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** One shared ioredis client per app (for the throttler, caches and health checks), and the cache invalidation bus on it. */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [SESAME_CONFIG],
      useFactory: (config: SesameConfig) => {
        const redis = new Redis(config.redis.url, redisOptions(config));
        redis.on('error', () => undefined); // reported through health checks and request errors
        return redis;
      },
    },
    RedisCloser,
    CacheInvalidationBus,
  ],
  exports: [REDIS, CacheInvalidationBus],
})
export class RedisModule {}
