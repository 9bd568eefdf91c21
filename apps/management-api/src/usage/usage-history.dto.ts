import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { USAGE_GRANULARITIES, UsageGranularity, UsagePoint, UsageRange } from '@sesame/usage';

const RANGES = Object.keys(USAGE_GRANULARITIES) as UsageRange[];
const GRANULARITIES: UsageGranularity[] = ['minute', 'hour', 'day'];

export class UsageHistoryQuery {
  @ApiPropertyOptional({ enum: RANGES, default: '24h', description: 'The last 24 hours or the last 30 days.' })
  @IsOptional()
  @IsIn(RANGES)
  range: UsageRange = '24h';

  @ApiPropertyOptional({
    enum: GRANULARITIES,
    description: 'One point per minute or hour (24h), or per hour or day (30d). Default: minute for 24h, day for 30d.',
  })
  @IsOptional()
  @IsIn(GRANULARITIES)
  granularity?: UsageGranularity;
}

export class UsageCountsResponse {
  @ApiProperty({ example: 12, description: "Management API requests made with the tenant's API keys (those the plan counts)." })
  apiRequests: number;

  @ApiProperty({ example: 3, description: 'Management API requests made by members through the console.' })
  memberRequests: number;

  @ApiProperty({ example: 2, description: 'Logins completed: login links used successfully.' })
  logins: number;

  @ApiProperty({ example: 2, description: 'Login e-mails sent.' })
  mailsSent: number;

  @ApiProperty({ example: 0, description: 'Login e-mails given up after MAIL_ATTEMPTS failed deliveries.' })
  mailsFailed: number;
}

export class UsagePointResponse extends UsageCountsResponse {
  @ApiProperty({ format: 'date-time', description: 'Start of the minute, hour or UTC day.' })
  start: string;

  static from(point: UsagePoint): UsagePointResponse {
    const { start, ...counts } = point;
    return { start: start.toISOString(), ...counts };
  }
}

export class UsageHistoryResponse {
  @ApiProperty({ format: 'uuid' })
  tenantId: string;

  @ApiProperty({ enum: RANGES })
  range: UsageRange;

  @ApiProperty({ enum: GRANULARITIES })
  granularity: UsageGranularity;

  @ApiProperty({
    type: [UsagePointResponse],
    description: 'Oldest first; the last point is the minute, hour or day under way (this request included).',
  })
  points: UsagePointResponse[];

  @ApiProperty({ type: UsageCountsResponse, description: 'Sums over the range.' })
  totals: UsageCountsResponse;
}
