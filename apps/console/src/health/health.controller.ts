import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { ApiPublic, RedisHealthIndicator, ShutdownHealthIndicator } from '@sesame/common';

/** GET /api/health (not under /console: the gateway does not expose it). */
@ApiTags('Health')
@ApiPublic()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly redis: RedisHealthIndicator,
    private readonly shutdown: ShutdownHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  @ApiOperation({ summary: "Reports Redis (the console's rate limits); 503 when it is down or the instance is shutting down" })
  check() {
    return this.health.check([() => this.redis.check(), () => this.shutdown.check()]);
  }
}
