import { ApiProperty } from '@nestjs/swagger';
import { Plan, PLANS, WindowName } from '@sesame/common';
import { toSeconds, WindowState } from '@sesame/throttler';

export class WindowUsageResponse {
  @ApiProperty({ example: 60, description: 'Length of the rolling window in seconds.' })
  windowSeconds: number;

  @ApiProperty({ example: 10, description: 'Requests the plan allows in any rolling window of this length.' })
  limit: number;

  @ApiProperty({ example: 3, description: 'Requests counted in the window that ends now (this one included).' })
  used: number;

  @ApiProperty({ example: 7 })
  remaining: number;

  @ApiProperty({
    example: 42,
    description:
      'Seconds until the window has room for one more request (the oldest counted request leaves it); 0 when nothing is counted.',
  })
  resetSeconds: number;

  static from(window: WindowState): WindowUsageResponse {
    return {
      windowSeconds: toSeconds(window.lengthMs),
      limit: window.limit,
      used: window.used,
      remaining: window.remaining,
      resetSeconds: toSeconds(window.resetMs),
    };
  }
}

export class WindowsUsageResponse implements Record<WindowName, WindowUsageResponse> {
  @ApiProperty({ type: WindowUsageResponse })
  minute: WindowUsageResponse;

  @ApiProperty({ type: WindowUsageResponse })
  hour: WindowUsageResponse;

  @ApiProperty({ type: WindowUsageResponse })
  day: WindowUsageResponse;
}

export class TenantUsageResponse {
  @ApiProperty({ format: 'uuid' })
  tenantId: string;

  @ApiProperty({ enum: PLANS })
  plan: Plan;

  @ApiProperty({ type: WindowsUsageResponse, description: "Management API requests of all the tenant's keys, per rolling window." })
  windows: WindowsUsageResponse;
}
