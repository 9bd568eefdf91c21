import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import {
  ClockModule,
  HttpMetricsGuard,
  JsonBodyGuard,
  LoggingModule,
  MetricsModule,
  ProblemFilter,
  RedisHealthIndicator,
  RedisModule,
  SesameConfig,
  SesameConfigModule,
  ShutdownHealthIndicator,
  ShutdownModule,
} from '@sesame/common';
import { DatabaseModule } from '@sesame/entities';
import { ApiKeyAuthModule, ApiKeyGuard, Public } from '@sesame/guards';
import { GlobalIpThrottlerGuard, MemberThrottlerGuard, PlanThrottlerGuard, SkipGlobalLimit, ThrottlingModule } from '@sesame/throttler';
import { AccessGuard } from './access/access.guard';
import { AccessModule } from './access/access.module';
import { GlobalLimitDeferralModule } from './access/global-limit-deferral.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { ApplicationsModule } from './applications/applications.module';
import { AuditModule } from './audit/audit.module';
import { HealthController } from './health/health.controller';
import { LoginActivityModule } from './login-activity/login-activity.module';
import { MembersModule } from './members/members.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { QueuesModule } from './queues/queues.module';
import { TenantsModule } from './tenants/tenants.module';
import { UsageCountingGuard } from './usage/usage-counting.guard';
import { UsageModule } from './usage/usage.module';
import { UsersModule } from './users/users.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** The management API (/api/v2): tenants, their members, organizations, users, applications, API keys, the audit log, login activity and usage. */
@Module({})
export class ManagementApiModule {
  static forRoot(config: SesameConfig): DynamicModule {
    return {
      module: ManagementApiModule,
      imports: [
        SesameConfigModule.forRoot(config),
        LoggingModule.forRoot(config, { app: 'management-api' }),
        MetricsModule.forRoot({ app: 'management-api', endpointDecorators: [Public(), SkipGlobalLimit()] }),
        ClockModule,
        ShutdownModule,
        DatabaseModule,
        RedisModule,
        TerminusModule,
        ApiKeyAuthModule,
        AccessModule,
        ThrottlingModule,
        GlobalLimitDeferralModule,
        // Static paths (tenant/api_key, tenant/usage, tenant/member, tenant/audit_event, tenant/webhook_endpoint) are registered before tenant/:tenantId.
        ApiKeysModule,
        WebhooksModule,
        UsageModule,
        MembersModule,
        AuditModule,
        TenantsModule,
        OrganizationsModule,
        UsersModule,
        ApplicationsModule,
        LoginActivityModule,
        QueuesModule.forRoot(config),
      ],
      controllers: [HealthController],
      providers: [
        RedisHealthIndicator,
        ShutdownHealthIndicator,
        // In this order: route labelling for the metrics, the per-IP global limit before any key lookup (for a cached key, counted with the plan's),
        // a body the API cannot read, then the key or member token, then the tenant's plan limits (keys) or the member's own limit, then the route's access rule, and last the usage count of what got through.
        { provide: APP_GUARD, useExisting: HttpMetricsGuard },
        { provide: APP_GUARD, useExisting: GlobalIpThrottlerGuard },
        { provide: APP_GUARD, useClass: JsonBodyGuard },
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        { provide: APP_GUARD, useExisting: PlanThrottlerGuard },
        { provide: APP_GUARD, useExisting: MemberThrottlerGuard },
        { provide: APP_GUARD, useExisting: AccessGuard },
        { provide: APP_GUARD, useExisting: UsageCountingGuard },
        { provide: APP_FILTER, useClass: ProblemFilter },
      ],
    };
  }
}
