import { ApiProperty } from '@nestjs/swagger';
import { IsString, IsUUID, MaxLength } from 'class-validator';

export class LoginCodeDto {
  @ApiProperty({ format: 'uuid', description: 'The attempt authenticate_direct answered with.' })
  @IsUUID()
  loginAttemptId: string;

  @ApiProperty({
    example: '123 456',
    maxLength: 20,
    description: 'The 6-digit code of the login e-mail, as the user typed it (spaces and dashes are ignored).',
  })
  @IsString()
  @MaxLength(20)
  code: string;
}

/** What the e-mailed link would have delivered to redirect_uri, as JSON. */
export class LoginCodeResponse {
  @ApiProperty({
    description: 'Authorization code for POST /v1/verify, bound to the attempt’s PKCE challenge and nonce; valid CODE_TTL_SECONDS, once.',
  })
  code: string;

  @ApiProperty({ description: 'The state the attempt started with, unchanged.' })
  state: string;

  @ApiProperty({ description: 'The redirect_uri the attempt started with: /v1/verify needs it exactly.' })
  redirectUri: string;
}
