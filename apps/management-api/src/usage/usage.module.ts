import { Module } from '@nestjs/common';
import { UsageCountersModule } from '@sesame/usage';
import { UsageCountingGuard } from './usage-counting.guard';
import { UsageController } from './usage.controller';

/** GET /v2/tenant/usage (PlanUsageService comes from the global ThrottlingModule) and /v2/tenant/usage/history, and the counting of requests (UsageCountingGuard, registered last among the app's guards). */
@Module({
  imports: [UsageCountersModule],
  controllers: [UsageController],
  providers: [UsageCountingGuard],
  exports: [UsageCountingGuard],
})
export class UsageModule {}
