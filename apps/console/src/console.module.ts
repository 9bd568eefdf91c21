import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import {
  ClockModule,
  HttpMetricsGuard,
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
import { GlobalIpThrottlerGuard, SkipGlobalLimit, ThrottlingModule } from '@sesame/throttler';
import { CONSOLE_CREDENTIALS, ConsoleCredentials } from './console-credentials';
import { CsrfGuard, CsrfTokens } from './csrf/csrf';
import { ForwardController } from './forward/forward.controller';
import { ManagementApi } from './management/management-api';
import { HealthController } from './health/health.controller';
import { ConsoleSessionService } from './session/console-session.service';
import { sesameClientProvider } from './session/sesame-client.provider';
import { CallbackController, SessionController } from './session/session.controller';
import { TryItController } from './try-it/try-it.controller';
import { TryItService } from './try-it/try-it.service';
import { ConsoleWeb } from './web/console-web';
import { ConsoleWebController } from './web/console-web.controller';

/**
 * The console's server (/console): signs members in with @sesame/client like any customer's
 * application, and forwards its pages' calls to the management API with the member's token.
 * It talks to Sesame only over HTTP (CONSOLE_SESAME_URL); Redis holds its rate limits.
 */
@Module({})
export class ConsoleModule {
  static forRoot(config: SesameConfig, credentials: ConsoleCredentials): DynamicModule {
    return {
      module: ConsoleModule,
      imports: [
        SesameConfigModule.forRoot(config),
        LoggingModule.forRoot(config, { app: 'console' }),
        MetricsModule.forRoot({ app: 'console', endpointDecorators: [SkipGlobalLimit()] }),
        ClockModule,
        ShutdownModule,
        RedisModule,
        TerminusModule,
        ThrottlingModule,
      ],
      controllers: [HealthController, SessionController, CallbackController, ForwardController, TryItController, ConsoleWebController],
      providers: [
        { provide: CONSOLE_CREDENTIALS, useValue: credentials },
        sesameClientProvider,
        ManagementApi,
        ConsoleSessionService,
        ConsoleWeb,
        TryItService,
        CsrfTokens,
        RedisHealthIndicator,
        ShutdownHealthIndicator,
        // Route labelling for the metrics, the per-IP global limit, then CSRF on every change.
        { provide: APP_GUARD, useExisting: HttpMetricsGuard },
        { provide: APP_GUARD, useExisting: GlobalIpThrottlerGuard },
        { provide: APP_GUARD, useClass: CsrfGuard },
        { provide: APP_FILTER, useClass: ProblemFilter },
      ],
    };
  }
}
