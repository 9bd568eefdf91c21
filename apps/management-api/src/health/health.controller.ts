import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { RedisHealthIndicator, ShutdownHealthIndicator } from '@sesame/common';
import { Public } from '@sesame/guards';

@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    private readonly shutdown: ShutdownHealthIndicator,
  ) {}

  @Get()
  @Public()
  @HealthCheck()
  @ApiOperation({ summary: 'Reports Postgres and Redis; 503 when either is down or the instance is shutting down' })
  check() {
    return this.health.check([
      () => this.database.pingCheck('postgres', { timeout: 1000 }),
      () => this.redis.check(),
      () => this.shutdown.check(),
    ]);
  }
}
