import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { ClockModule, RedisHealthIndicator, RedisModule, SesameConfig, SesameConfigModule } from '@sesame/common';
import { DatabaseModule } from '@sesame/entities';
import { GlobalIpThrottlerGuard, ThrottlingModule } from '@sesame/throttler';
import { DirectAuthModule } from './direct-auth/direct-auth.module';
import { HealthController } from './health/health.controller';
import { LoginPageModule } from './login-page/login-page.module';
import { OAuthErrorFilter } from './oauth/oauth-error.filter';
import { TokensModule } from './tokens/tokens.module';

/** The auth API (/api/v1): the login flow and tokens. */
@Module({})
export class AuthApiModule {
  static forRoot(config: SesameConfig): DynamicModule {
    return {
      module: AuthApiModule,
      imports: [SesameConfigModule.forRoot(config), ClockModule, DatabaseModule, RedisModule, TerminusModule, ThrottlingModule, DirectAuthModule, TokensModule, LoginPageModule],
      controllers: [HealthController],
      providers: [
        RedisHealthIndicator,
        { provide: APP_GUARD, useExisting: GlobalIpThrottlerGuard },
        { provide: APP_FILTER, useClass: OAuthErrorFilter },
      ],
    };
  }
}
