import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { RedisHealthIndicator } from '@sesame/common';
import { SmtpTransport } from '../mail/smtp-transport';

@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    private readonly mailer: SmtpTransport,
    private readonly indicators: HealthIndicatorService,
  ) {}

  /** Postgres (the attempts it sends), Redis (the queue) and the SMTP transport; 503 when any is down. */
  @Get()
  @HealthCheck()
  check() {
    return this.health.check([() => this.database.pingCheck('postgres', { timeout: 1000 }), () => this.redis.check(), () => this.smtp()]);
  }

  private async smtp() {
    const indicator = this.indicators.check('smtp');
    try {
      return (await this.mailer.verify()) ? indicator.up() : indicator.down({ message: 'SMTP transport not ready' });
    } catch (error) {
      return indicator.down({ message: error instanceof Error ? error.message : 'unreachable' });
    }
  }
}
