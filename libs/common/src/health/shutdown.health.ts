import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { ShutdownDrain } from '../shutdown/shutdown-drain';

/** Down from the shutdown signal on, so that orchestrators and gateways stop sending requests while the instance drains. */
@Injectable()
export class ShutdownHealthIndicator {
  constructor(
    private readonly drain: ShutdownDrain,
    private readonly indicators: HealthIndicatorService,
  ) {}

  check(key = 'shutdown'): HealthIndicatorResult {
    const indicator = this.indicators.check(key);
    return this.drain.draining ? indicator.down({ message: 'shutting down' }) : indicator.up();
  }
}
