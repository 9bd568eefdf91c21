import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { ApiPublic, RedisHealthIndicator } from '@sesame/common';

/** GET /api/health (not under /console: the gateway does not expose it). */
@ApiTags('Health')
@ApiPublic()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly redis: RedisHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  @ApiOperation({ summary: "Reports Redis (the console's rate limits); 503 when it is down" })
  check() {
    return this.health.check([() => this.redis.check()]);
  }
}
