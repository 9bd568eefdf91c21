import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { SESAME_CONFIG } from '../config/config.module';
import { SesameConfig } from '../config/sesame-config';
import { CacheInvalidationBus } from '../cache/cache-invalidation';
import { redisOptions } from './redis-connection';
import { REDIS } from './redis-token';

export { REDIS } from './redis-token';

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
        const redis = new Redis(redisOptions(config));
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
