import { Module } from '@nestjs/common';
import { UsageController } from './usage.controller';

/** GET /v2/tenant/usage (PlanUsageService comes from the global ThrottlingModule). */
@Module({ controllers: [UsageController] })
export class UsageModule {}
