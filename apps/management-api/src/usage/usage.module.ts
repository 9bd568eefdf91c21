import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { UsageCountersModule } from '@sesame/usage';
import { UsageRecordingInterceptor } from './usage-recording.interceptor';
import { UsageController } from './usage.controller';

/** GET /v2/tenant/usage (PlanUsageService comes from the global ThrottlingModule) and /v2/tenant/usage/history, and the counting of requests. */
@Module({
  imports: [UsageCountersModule],
  controllers: [UsageController],
  providers: [{ provide: APP_INTERCEPTOR, useClass: UsageRecordingInterceptor }],
})
export class UsageModule {}
