import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { RedisHealthIndicator } from '@sesame/common';

/** GET /api/health (not under /console: the gateway does not expose it). */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly redis: RedisHealthIndicator,
  ) {}

  /** Redis (the console's rate limits); 503 when it is down. */
  @Get()
  @HealthCheck()
  check() {
    return this.health.check([() => this.redis.check()]);
  }
}
