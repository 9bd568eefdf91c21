import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { ROLES, Role, PLANS, Plan } from '@sesame/common';

export class SignInDto {
  @ApiProperty({ example: 'ada@example.com', maxLength: 320, description: 'The address to e-mail the sign-in link to.' })
  @IsString()
  @MaxLength(320)
  email: string;
}

export class SignInResponse {
  @ApiProperty({ example: 'ada@example.com', description: 'The address, normalised.' })
  email: string;

  @ApiProperty({
    format: 'uuid',
    description: 'The sign-in to wait on (GET /console/api/sign_in/status) or to finish with the e-mail’s code.',
  })
  loginAttemptId: string;

  @ApiProperty({
    example: 'Clever nectar jingles greatly',
    description: 'The sentence the e-mail shows too: show it, so the person can recognise their e-mail.',
  })
  sentence: string;

  @ApiProperty({
    example: '42',
    description:
      'Show it large on the waiting page and nowhere else: typed on another device that opened the link, it signs this browser in.',
  })
  approvalNumber: string;

  @ApiProperty({ format: 'date-time', description: 'The next link for this address can be sent from this time on.' })
  allowedDate: string;

  @ApiProperty({ example: 'Check your inbox: we sent a sign-in link to ada@example.com.', description: 'A sentence for the page to show.' })
  message: string;
}

export class SignInCodeDto {
  @ApiProperty({ format: 'uuid', description: 'The sign-in the code belongs to (from POST /console/api/sign_in).' })
  @IsUUID()
  loginAttemptId: string;

  @ApiProperty({ example: '123 456', maxLength: 20, description: 'The 6-digit code of the e-mail (spaces and dashes are ignored).' })
  @IsString()
  @MaxLength(20)
  code: string;
}

export class SignInStatusQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  loginAttemptId: string;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 25,
    default: 20,
    description: 'Seconds to hold the answer while the sign-in is pending (it answers as soon as it changes).',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(25)
  wait?: number;
}

export class SignInStatusResponse {
  @ApiProperty({
    enum: ['pending', 'completed', 'expired', 'locked'],
    description:
      '`completed`: signed in (here, when the session says so: by the code, by an approval from another device, or by the link opened in another tab), or on another device.',
  })
  status: 'pending' | 'completed' | 'expired' | 'locked';
}

export class MembershipResponse {
  @ApiProperty({ format: 'uuid' })
  memberId: string;

  @ApiProperty({ format: 'uuid', description: 'Send it as the Sesame-Tenant header of forwarded calls.' })
  tenantId: string;

  @ApiProperty({ example: 'Acme' })
  tenantName: string;

  @ApiProperty({ enum: PLANS })
  plan: Plan;

  @ApiProperty({ enum: ROLES })
  role: Role;
}

export class SessionResponse {
  @ApiProperty()
  signedIn: boolean;

  @ApiProperty({ type: String, nullable: true, example: 'ada@example.com', description: 'The signed-in address; null when signed out.' })
  email: string | null;

  @ApiProperty({
    type: [MembershipResponse],
    description: 'The tenants the person belongs to. Signed in with none: they may do nothing (show a page saying so).',
  })
  memberships: MembershipResponse[];

  @ApiProperty({ description: 'Send it as the X-CSRF-Token header of every POST and DELETE to /console.' })
  csrfToken: string;
}
