import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { LOGIN_ATTEMPT_STATUSES, LoginAttemptStatus } from '@sesame/entities';

/** The login attempt object of the interface specification. */
export class LoginAttemptResponse {
  @ApiProperty({ format: 'uuid', description: 'Identifies the attempt; poll GET /v1/login_attempt/{loginAttemptId} for its status.' })
  loginAttemptId: string;

  @ApiProperty({ description: 'SHA-256 (hex) of the link token; the token itself is only in the e-mail.' })
  token: string;

  @ApiProperty({
    example: 'Brave otter paints softly',
    description: 'Show it to the user: the e-mail and the link page show the same phrase, so they can recognise their own e-mail.',
  })
  sentence: string;

  @ApiProperty({
    example: '42',
    pattern: '^[1-9][0-9]$',
    description:
      'Show it large on the waiting screen, and nowhere else: a person who opens the link on another device types it there to sign this screen in. It is in no e-mail, page or other answer, and this answer is the only time Sesame gives it.',
  })
  approvalNumber: string;

  @ApiProperty({ format: 'date-time', description: 'Earliest time the next login attempt for this address will be accepted.' })
  allowedDate: string;

  @ApiPropertyOptional({
    description: 'With `approved` only, in one answer: the authorization code for POST /v1/verify, bound to the attempt’s PKCE challenge.',
  })
  code?: string;

  @ApiPropertyOptional({ description: 'With `code`: the state the attempt started with.' })
  state?: string;

  @ApiPropertyOptional({ description: 'With `code`: the redirect_uri the attempt started with (POST /v1/verify needs it exactly).' })
  redirectUri?: string;
}

export class LoginAttemptStatusQuery {
  @ApiPropertyOptional({
    minimum: 0,
    maximum: 25,
    description:
      'Seconds to hold the request while the attempt is `pending`: it answers as soon as the status changes (on any instance), or when the time is up.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(25)
  wait?: number;
}

export class TooEarlyResponse {
  @ApiProperty({ format: 'date-time', description: 'Earliest time a login attempt for this address will be accepted.' })
  allowedDate: string;
}

export class LoginAttemptStatusResponse {
  @ApiProperty({ format: 'uuid' })
  loginAttemptId: string;

  @ApiProperty({
    enum: LOGIN_ATTEMPT_STATUSES,
    description:
      '`pending` (link and code usable), `approved` (approved from another device: this answer carries the code, once; later answers say `completed`), ' +
      '`completed` (used by its link or code, or collected), `expired`, `locked` (five wrong codes).',
  })
  status: LoginAttemptStatus;

  @ApiProperty({ format: 'date-time', description: 'When the e-mailed link stops working.' })
  expiresAt: string;

  @ApiProperty({ format: 'date-time', description: 'Earliest time the next login attempt for this address will be accepted.' })
  allowedDate: string;
}
