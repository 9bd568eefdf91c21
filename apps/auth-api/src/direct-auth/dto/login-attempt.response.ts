import { ApiProperty } from '@nestjs/swagger';
import { LOGIN_ATTEMPT_STATUSES, LoginAttemptStatus } from '@sesame/entities';

/** The login attempt object of the interface specification. */
export class LoginAttemptResponse {
  @ApiProperty({ format: 'uuid', description: 'Identifies the attempt; poll GET /v1/login_attempt/{loginAttemptId} for its status.' })
  loginAttemptId: string;

  @ApiProperty({ description: 'SHA-256 (hex) of the link token; the token itself is only in the e-mail.' })
  token: string;

  @ApiProperty({ example: 'Brave otter paints softly', description: 'Show it to the user: the e-mail and the link page show the same phrase.' })
  sentence: string;

  @ApiProperty({ format: 'date-time', description: 'Earliest time the next login attempt for this address will be accepted.' })
  allowedDate: string;
}

export class TooEarlyResponse {
  @ApiProperty({ format: 'date-time', description: 'Earliest time a login attempt for this address will be accepted.' })
  allowedDate: string;
}

export class LoginAttemptStatusResponse {
  @ApiProperty({ format: 'uuid' })
  loginAttemptId: string;

  @ApiProperty({ enum: LOGIN_ATTEMPT_STATUSES })
  status: LoginAttemptStatus;

  @ApiProperty({ format: 'date-time', description: 'When the e-mailed link stops working.' })
  expiresAt: string;

  @ApiProperty({ format: 'date-time', description: 'Earliest time the next login attempt for this address will be accepted.' })
  allowedDate: string;
}
