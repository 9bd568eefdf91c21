import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { ClockModule, ProblemFilter, RedisHealthIndicator, RedisModule, SesameConfig, SesameConfigModule } from '@sesame/common';
import { DatabaseModule } from '@sesame/entities';
import { HealthController } from './health/health.controller';
import { MailModule } from './mail/mail.module';

/** The mail worker: consumes the Bull `mail` queue; HTTP only for its health endpoint. */
@Module({})
export class MailWorkerModule {
  static forRoot(config: SesameConfig): DynamicModule {
    return {
      module: MailWorkerModule,
      imports: [SesameConfigModule.forRoot(config), ClockModule, DatabaseModule, RedisModule, TerminusModule, MailModule],
      controllers: [HealthController],
      providers: [RedisHealthIndicator, { provide: APP_FILTER, useClass: ProblemFilter }],
    };
  }
}
