import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import {
  ClockModule,
  HttpMetricsGuard,
  LoggingModule,
  MetricsModule,
  RedisHealthIndicator,
  RedisModule,
  SesameConfig,
  SesameConfigModule,
  ShutdownHealthIndicator,
  ShutdownModule,
} from '@sesame/common';
import { DatabaseModule } from '@sesame/entities';
import { GlobalIpThrottlerGuard, SkipGlobalLimit, ThrottlingModule } from '@sesame/throttler';
import { DirectAuthModule } from './direct-auth/direct-auth.module';
import { DirectPasskeysModule } from './direct-passkeys/direct-passkeys.module';
import { OwnPasskeysModule } from './own-passkeys/own-passkeys.module';
import { HealthController } from './health/health.controller';
import { LoginPageModule } from './login-page/login-page.module';
import { GlobalLimitDeferralModule } from './oauth/global-limit-deferral.module';
import { OAuthErrorFilter } from './oauth/oauth-error.filter';
import { TokensModule } from './tokens/tokens.module';

/** The auth API (/api/v1): the login flow and tokens. */
@Module({})
export class AuthApiModule {
  static forRoot(config: SesameConfig): DynamicModule {
    return {
      module: AuthApiModule,
      imports: [
        SesameConfigModule.forRoot(config),
        LoggingModule.forRoot(config, { app: 'auth-api' }),
        MetricsModule.forRoot({ app: 'auth-api', endpointDecorators: [SkipGlobalLimit()] }),
        ClockModule,
        ShutdownModule,
        DatabaseModule,
        RedisModule,
        TerminusModule,
        ThrottlingModule,
        GlobalLimitDeferralModule,
        DirectAuthModule,
        TokensModule,
        LoginPageModule,
        DirectPasskeysModule,
        OwnPasskeysModule,
      ],
      controllers: [HealthController],
      providers: [
        RedisHealthIndicator,
        ShutdownHealthIndicator,
        // First, so that requests a later guard refuses are still labelled with their route.
        { provide: APP_GUARD, useExisting: HttpMetricsGuard },
        // The per-IP global limit, before any client lookup (for a cached client, counted with the endpoint limit: GlobalLimitDeferralModule).
        { provide: APP_GUARD, useExisting: GlobalIpThrottlerGuard },
        { provide: APP_FILTER, useClass: OAuthErrorFilter },
      ],
    };
  }
}
