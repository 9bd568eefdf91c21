import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Equals, IsIP, IsNotEmpty, IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { NONCE_MAX } from '../../direct-auth/dto/authenticate-direct.dto';

const PLAIN_TEXT = /^[^\u0000-\u001f\u007f]*$/;

const ORIGIN = ApiProperty({
  example: 'https://app.example.com',
  maxLength: 300,
  description:
    'The origin of the application’s page that runs the browser’s ceremony, exactly as the browser reports it (scheme, host, port): ' +
    'one of the organization’s whitelist domains. Its host is the relying party id: passkeys work on that host only.',
});

const RESPONSE = ApiProperty({
  type: 'object',
  additionalProperties: true,
  description: 'The browser’s PublicKeyCredential as JSON (`id`, `rawId`, `type`, `response`, …), as @simplewebauthn/browser answers it.',
});

/** The login a passkey sign-in completes: as authenticate_direct's, with PKCE required, and the page's origin. */
export class DirectPasskeySignInOptionsDto {
  @ORIGIN
  @IsString()
  @MaxLength(300)
  origin: string;

  @ApiProperty({
    example: 'https://app.example.com/auth/callback',
    description:
      'The redirect_uri the code is bound to (as for authenticate_direct: a whitelist domain, a registered callback URL if any).',
  })
  @IsString()
  @MaxLength(2000)
  redirect_uri: string;

  @ApiProperty({ maxLength: 1024, description: 'Returned unchanged with the code.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  state: string;

  @ApiProperty({ example: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', description: 'PKCE S256 challenge (required).' })
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: 'code_challenge must be a base64url SHA-256 digest (43 characters)' })
  code_challenge: string;

  @ApiProperty({ enum: ['S256'] })
  @Equals('S256', { message: 'code_challenge_method must be S256' })
  code_challenge_method: 'S256';

  @ApiPropertyOptional({ maxLength: NONCE_MAX, description: 'OpenID Connect nonce: returned as the id_token’s `nonce` claim.' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NONCE_MAX)
  @Matches(PLAIN_TEXT, { message: 'nonce must not contain control characters' })
  nonce?: string;
}

export class DirectPasskeySignInVerifyDto extends DirectPasskeySignInOptionsDto {
  @RESPONSE
  @IsObject()
  response: Record<string, unknown>;

  @ApiPropertyOptional({ maxLength: 512, description: 'The end user’s User-Agent (login activity).' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  @Matches(PLAIN_TEXT, { message: 'userAgent must not contain control characters' })
  userAgent?: string;

  @ApiPropertyOptional({
    example: '203.0.113.7',
    description: 'The end user’s IP address as the application resolves it (login activity).',
  })
  @IsOptional()
  @IsIP()
  userIp?: string;
}

/** A registration right after a direct login: the access token that login just issued, and the page's origin. */
export class DirectPasskeyRegistrationOptionsDto {
  @ApiProperty({
    description:
      'The access token the login just issued (POST /v1/verify): it names the user, and allows one registration within 10 minutes of the sign-in.',
  })
  @IsString()
  @MaxLength(200)
  access_token: string;

  @ORIGIN
  @IsString()
  @MaxLength(300)
  origin: string;
}

export class DirectPasskeyRegistrationVerifyDto extends DirectPasskeyRegistrationOptionsDto {
  @RESPONSE
  @IsObject()
  response: Record<string, unknown>;

  @ApiPropertyOptional({ maxLength: 512, description: 'The end user’s User-Agent: names the passkey (e.g. "Chrome on macOS").' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  @Matches(PLAIN_TEXT, { message: 'userAgent must not contain control characters' })
  userAgent?: string;

  @ApiPropertyOptional({ example: '203.0.113.7', description: 'The end user’s IP address as the application resolves it (audit log).' })
  @IsOptional()
  @IsIP()
  userIp?: string;
}

export class DirectPasskeyRegisteredResponse {
  @ApiProperty({ example: true }) registered: boolean;
  @ApiProperty({ format: 'uuid', description: 'The new passkey’s id (as in passkey.registered and the management API).' })
  passkeyId: string;
  @ApiProperty({ example: 'Chrome on macOS' }) name: string;
}

/** WebAuthn options as JSON, as @simplewebauthn/browser takes them (`startAuthentication` or `startRegistration` with `{ optionsJSON }`). */
export class DirectPasskeyOptionsResponse {
  @ApiProperty({ description: 'The one-time challenge (base64url).' }) challenge: string;
  @ApiPropertyOptional({ description: 'Request options: the relying party id, the host of the page’s origin.' }) rpId?: string;
}
