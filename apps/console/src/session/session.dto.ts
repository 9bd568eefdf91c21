import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { MEMBER_ROLES, MemberRole, PLANS, Plan } from '@sesame/common';

export class SignInDto {
  @ApiProperty({ example: 'ada@example.com', maxLength: 320, description: 'The address to e-mail the sign-in link to.' })
  @IsString()
  @MaxLength(320)
  email: string;
}

export class SignInResponse {
  @ApiProperty({ example: 'ada@example.com', description: 'The address, normalised.' })
  email: string;

  @ApiProperty({ example: 'Clever nectar jingles greatly', description: "The sentence the e-mailed link's page shows too: show it, so the person can recognise their sign-in." })
  sentence: string;

  @ApiProperty({ format: 'date-time', description: 'The next link for this address can be sent from this time on.' })
  allowedDate: string;

  @ApiProperty({ example: 'Check your inbox: we sent a sign-in link to ada@example.com.', description: 'A sentence for the page to show.' })
  message: string;
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

  @ApiProperty({ enum: MEMBER_ROLES })
  role: MemberRole;
}

export class SessionResponse {
  @ApiProperty()
  signedIn: boolean;

  @ApiProperty({ type: String, nullable: true, example: 'ada@example.com', description: 'The signed-in address; null when signed out.' })
  email: string | null;

  @ApiProperty({ type: [MembershipResponse], description: 'The tenants the person belongs to. Signed in with none: they may do nothing (show a page saying so).' })
  memberships: MembershipResponse[];

  @ApiProperty({ description: 'Send it as the X-CSRF-Token header of every POST and DELETE to /console.' })
  csrfToken: string;
}
