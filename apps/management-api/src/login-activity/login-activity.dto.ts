import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { PageQuery } from '@sesame/common';
import { LOGIN_ATTEMPT_STATUSES, LOGIN_METHODS, LoginAttemptStatus, LoginMethod } from '@sesame/entities';

export const MAIL_STATES = ['suppressed', 'not_queued', 'queued', 'sent', 'failed'] as const;
export type MailState = (typeof MAIL_STATES)[number];

export class LoginActivityQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Only attempts for this address (compared after normalisation).' })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  email?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only attempts of this application.' })
  @IsOptional()
  @IsUUID()
  applicationId?: string;

  @ApiPropertyOptional({
    enum: LOGIN_ATTEMPT_STATUSES,
    description: 'Only attempts in this status (a pending attempt past its expiry counts as expired).',
  })
  @IsOptional()
  @IsIn(LOGIN_ATTEMPT_STATUSES)
  status?: LoginAttemptStatus;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only attempts started at or after this time.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only attempts started before this time.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;
}

export class LoginActivityResponse {
  @ApiProperty({ format: 'uuid', description: 'The loginAttemptId the application was given.' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  applicationId: string;

  @ApiProperty({ example: 'Acme web shop' })
  applicationName: string;

  @ApiProperty({ example: 'ada@example.com' })
  email: string;

  @ApiProperty({ enum: LOGIN_ATTEMPT_STATUSES, description: 'A pending attempt past its expiry is reported as expired.' })
  status: LoginAttemptStatus;

  @ApiProperty({
    enum: MAIL_STATES,
    description:
      'The login e-mail: `suppressed` (blocked user: none is sent), `not_queued` (not yet handed to the queue), `queued`, `sent`, or `failed` (given up after MAIL_ATTEMPTS deliveries).',
  })
  mail: MailState;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  mailQueuedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  mailSentAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  mailFailedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the link was used.' })
  completedAt: string | null;

  @ApiProperty({
    enum: LOGIN_METHODS,
    description:
      '`email`: an e-mailed link or code (or an approval from another device); `passkey`: a passkey, on the hosted login page or through direct authentication, with no e-mail (`mail` is `not_queued`; docs/passkeys.md).',
  })
  method: LoginMethod;
}
