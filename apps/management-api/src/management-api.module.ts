import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { ClockModule, ProblemFilter, RedisHealthIndicator, RedisModule, SesameConfig, SesameConfigModule } from '@sesame/common';
import { DatabaseModule } from '@sesame/entities';
import { ApiKeyAuthModule, ApiKeyGuard } from '@sesame/guards';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { ApplicationsModule } from './applications/applications.module';
import { HealthController } from './health/health.controller';
import { OrganizationsModule } from './organizations/organizations.module';
import { TenantsModule } from './tenants/tenants.module';
import { UsersModule } from './users/users.module';

/** The management API (/api/v2): tenants, organizations, users, applications and API keys. */
@Module({})
export class ManagementApiModule {
  static forRoot(config: SesameConfig): DynamicModule {
    return {
      module: ManagementApiModule,
      imports: [
        SesameConfigModule.forRoot(config),
        ClockModule,
        DatabaseModule,
        RedisModule,
        TerminusModule,
        ApiKeyAuthModule,
        // Static paths (tenant/api_key) are registered before tenant/:tenantId.
        ApiKeysModule,
        TenantsModule,
        OrganizationsModule,
        UsersModule,
        ApplicationsModule,
      ],
      controllers: [HealthController],
      providers: [
        RedisHealthIndicator,
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        { provide: APP_FILTER, useClass: ProblemFilter },
      ],
    };
  }
}
