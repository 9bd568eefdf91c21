import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { ClockModule, HttpMetricsGuard, LoggingModule, MetricsModule, ProblemFilter, RedisHealthIndicator, RedisModule, SesameConfig, SesameConfigModule } from '@sesame/common';
import { DatabaseModule } from '@sesame/entities';
import { ApiKeyAuthModule, ApiKeyGuard, Public } from '@sesame/guards';
import { GlobalIpThrottlerGuard, PlanThrottlerGuard, SkipGlobalLimit, ThrottlingModule } from '@sesame/throttler';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { ApplicationsModule } from './applications/applications.module';
import { HealthController } from './health/health.controller';
import { OrganizationsModule } from './organizations/organizations.module';
import { QueuesModule } from './queues/queues.module';
import { TenantsModule } from './tenants/tenants.module';
import { UsageModule } from './usage/usage.module';
import { UsersModule } from './users/users.module';

/** The management API (/api/v2): tenants, organizations, users, applications and API keys. */
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
        DatabaseModule,
        RedisModule,
        TerminusModule,
        ApiKeyAuthModule,
        ThrottlingModule,
        // Static paths (tenant/api_key, tenant/usage) are registered before tenant/:tenantId.
        ApiKeysModule,
        UsageModule,
        TenantsModule,
        OrganizationsModule,
        UsersModule,
        ApplicationsModule,
        QueuesModule.forRoot(config),
      ],
      controllers: [HealthController],
      providers: [
        RedisHealthIndicator,
        // In this order: route labelling for the metrics, the per-IP global limit before any key lookup, then the key, then the tenant's plan limits.
        { provide: APP_GUARD, useExisting: HttpMetricsGuard },
        { provide: APP_GUARD, useExisting: GlobalIpThrottlerGuard },
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        { provide: APP_GUARD, useExisting: PlanThrottlerGuard },
        { provide: APP_FILTER, useClass: ProblemFilter },
      ],
    };
  }
}
