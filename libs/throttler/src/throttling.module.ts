import { Global, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { EndpointThrottlerGuard } from './endpoint-throttler.guard';
import { GlobalIpThrottlerGuard } from './global-ip-throttler.guard';
import { MemberThrottlerGuard } from './member-throttler.guard';
import { PlanThrottlerGuard } from './plan-throttler.guard';
import { PlanUsageService } from './plan-usage.service';
import { RedisThrottlerStorage } from './redis-throttler.storage';
import { throttlerModuleOptions } from './throttler-options';

/** Provides the Redis storage to ThrottlerModule's options factory. */
@Module({ providers: [RedisThrottlerStorage], exports: [RedisThrottlerStorage] })
class ThrottlerStorageModule {}

/**
 * Rate limiting for an HTTP app: @nestjs/throttler's ThrottlerModule with the Redis
 * sliding-window storage, and the guards. Needs SesameConfigModule, ClockModule and RedisModule
 * (all global). Global, so EndpointThrottlerGuard can be used with @UseGuards() in any module.
 */
@Global()
@Module({
  imports: [
    ThrottlerStorageModule,
    ThrottlerModule.forRootAsync({
      imports: [ThrottlerStorageModule],
      inject: [SESAME_CONFIG, RedisThrottlerStorage],
      useFactory: (config: SesameConfig, storage: RedisThrottlerStorage) => throttlerModuleOptions(config, storage),
    }),
  ],
  providers: [GlobalIpThrottlerGuard, PlanThrottlerGuard, MemberThrottlerGuard, EndpointThrottlerGuard, PlanUsageService],
  exports: [
    ThrottlerStorageModule,
    GlobalIpThrottlerGuard,
    PlanThrottlerGuard,
    MemberThrottlerGuard,
    EndpointThrottlerGuard,
    PlanUsageService,
  ],
})
export class ThrottlingModule {}
