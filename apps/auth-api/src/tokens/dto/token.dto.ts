import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';

/** Client credentials a form may carry (client_secret_post, or client_id alone for native apps). */
class ClientCredentialsForm {
  @ApiPropertyOptional({ description: 'With client_secret_post, or alone for native apps (PKCE).' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  client_id?: string;

  @ApiPropertyOptional({ description: 'client_secret_post: supported, but less secure than HTTP Basic.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  client_secret?: string;
}

export class VerifyForm extends ClientCredentialsForm {
  @ApiPropertyOptional({ enum: ['authorization_code'], description: 'Optional; when present it must be authorization_code.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  grant_type?: string;

  @ApiProperty({ description: 'The code received on the callback URL.' })
  @IsString()
  @MaxLength(200)
  code: string;

  @ApiProperty({ description: 'Exactly the redirect_uri given when the login was started.' })
  @IsString()
  @MaxLength(2000)
  redirect_uri: string;

  @ApiPropertyOptional({
    description:
      'The PKCE code verifier, when the login was started with a code_challenge (always for native apps and the hosted login page).',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  code_verifier?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description:
      '`true` when exchanging the code of an autologin stop (a callback that carried `autologin_continue`): such codes have no PKCE challenge and are exchanged only this way, and this way exchanges nothing else.',
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  autologin?: 'true' | 'false';
}

export class TokenForm extends ClientCredentialsForm {
  @ApiProperty({ description: 'The access token.' })
  @IsString()
  @MaxLength(200)
  token: string;

  @ApiPropertyOptional({ enum: ['access_token'], description: 'Only access tokens exist; other hints are ignored (RFC 7009 §2.1).' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  token_type_hint?: string;
}

export class TokenResponse {
  @ApiProperty({ description: 'Opaque long-lived token; send it as `Authorization: Bearer` to /v1/userinfo.' })
  access_token: string;

  @ApiProperty({
    description:
      'A signed JWT (ES256). For web apps registered with idTokenEncryptedResponseAlg `dir` (the default) it is wrapped in a JWE (dir, A256GCM) whose key is SHA-256 of the client secret the request authenticated with.',
  })
  id_token: string;

  @ApiProperty({ example: 2592000, description: 'Seconds until the access token expires.' })
  expires_in: number;

  @ApiProperty({ format: 'date-time' })
  expires_at: string;

  @ApiProperty({ enum: ['Bearer'] })
  token_type: 'Bearer';
}

export class UserInfoResponse {
  @ApiProperty({ format: 'uuid' })
  sub: string;

  @ApiProperty()
  email: string;

  @ApiProperty()
  email_verified: boolean;

  @ApiPropertyOptional({ type: String, description: 'Left out while the user has no name (OpenID Connect Core §5.3.2).' })
  name?: string;

  @ApiProperty({ format: 'uuid' })
  organization_id: string;

  @ApiProperty({ description: 'Seconds since the epoch (OpenID Connect).' })
  updated_at: number;
}

export class IntrospectionResponse {
  @ApiProperty()
  active: boolean;

  @ApiPropertyOptional() client_id?: string;
  @ApiPropertyOptional() sub?: string;
  @ApiPropertyOptional() exp?: number;
  @ApiPropertyOptional() iat?: number;
  @ApiPropertyOptional() iss?: string;
  @ApiPropertyOptional({ enum: ['Bearer'] }) token_type?: 'Bearer';
  @ApiPropertyOptional() email?: string;
  @ApiPropertyOptional() org_id?: string;
}
