import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Equals,
  IsDefined,
  IsIP,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

const PLAIN_TEXT = /^[^\u0000-\u001f\u007f]*$/;
const TRANSLATION_MAX = 300;
/** Longest accepted OpenID Connect nonce (the column's size). */
export const NONCE_MAX = 512;

/** Overrides of the login e-mail's strings: plain text (HTML-escaped when rendered), bounded, one line each. */
export class TranslationsDto {
  @ApiPropertyOptional({ maxLength: TRANSLATION_MAX, example: 'Your sign-in link for {organization}' })
  @IsOptional()
  @IsString()
  @MaxLength(TRANSLATION_MAX)
  @Matches(PLAIN_TEXT, { message: 'subject must be plain text on one line' })
  subject?: string;

  @ApiPropertyOptional({ maxLength: TRANSLATION_MAX, example: 'Hello,' })
  @IsOptional()
  @IsString()
  @MaxLength(TRANSLATION_MAX)
  @Matches(PLAIN_TEXT, { message: 'greeting must be plain text on one line' })
  greeting?: string;

  @ApiPropertyOptional({ maxLength: TRANSLATION_MAX, example: 'Press the button to sign in to {organization}.' })
  @IsOptional()
  @IsString()
  @MaxLength(TRANSLATION_MAX)
  @Matches(PLAIN_TEXT, { message: 'intro must be plain text on one line' })
  intro?: string;

  @ApiPropertyOptional({ maxLength: TRANSLATION_MAX, example: 'Sign in' })
  @IsOptional()
  @IsString()
  @MaxLength(TRANSLATION_MAX)
  @Matches(PLAIN_TEXT, { message: 'button must be plain text on one line' })
  button?: string;

  @ApiPropertyOptional({ maxLength: TRANSLATION_MAX, example: 'Or type this code where you asked to sign in:' })
  @IsOptional()
  @IsString()
  @MaxLength(TRANSLATION_MAX)
  @Matches(PLAIN_TEXT, { message: 'code must be plain text on one line' })
  code?: string;

  @ApiPropertyOptional({ maxLength: TRANSLATION_MAX, example: 'The link expires in {minutes} minutes.' })
  @IsOptional()
  @IsString()
  @MaxLength(TRANSLATION_MAX)
  @Matches(PLAIN_TEXT, { message: 'expiry must be plain text on one line' })
  expiry?: string;

  @ApiPropertyOptional({ maxLength: TRANSLATION_MAX, example: 'If you did not ask for this e-mail, ignore it.' })
  @IsOptional()
  @IsString()
  @MaxLength(TRANSLATION_MAX)
  @Matches(PLAIN_TEXT, { message: 'ignore must be plain text on one line' })
  ignore?: string;
}

export class AuthenticateDirectDto {
  @ApiProperty({ example: 'ada@example.com', description: 'Address to e-mail the one-time login link to.' })
  @IsString()
  @MaxLength(320)
  email: string;

  @ApiProperty({
    example: 'https://app.example.com/auth/callback',
    description:
      'Where the user lands after the link: its origin must be a whitelist domain of the organization, and it must equal a registered callback URL when the application has any.',
  })
  @IsString()
  @MaxLength(2000)
  redirect_uri: string;

  @ApiProperty({
    example: 'k2V9pQ...',
    maxLength: 1024,
    description: 'Returned unchanged to the callback: random, verifiable, unique to the user (CSRF protection).',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  state: string;

  @ApiPropertyOptional({
    maxLength: NONCE_MAX,
    example: 'n-0S6_WzA2Mj',
    description: 'OpenID Connect nonce: returned unchanged as the id_token’s `nonce` claim.',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NONCE_MAX)
  @Matches(PLAIN_TEXT, { message: 'nonce must not contain control characters' })
  nonce?: string;

  @ApiPropertyOptional({
    maxLength: 512,
    example: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
    description:
      'The end user’s User-Agent (the application’s server passes it on): a person approving the sign-in from another device is shown its browser and system.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  @Matches(PLAIN_TEXT, { message: 'userAgent must not contain control characters' })
  userAgent?: string;

  @ApiPropertyOptional({
    example: '203.0.113.7',
    description:
      'The end user’s IP address as the application resolves it (the application’s server passes it on): a person approving the sign-in from another device is shown it.',
  })
  @IsOptional()
  @IsIP()
  userIp?: string;

  @ApiPropertyOptional({ type: TranslationsDto, description: 'Strings of the e-mail; `{organization}` and `{minutes}` are replaced.' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TranslationsDto)
  translations?: TranslationsDto;

  @ApiPropertyOptional({
    example: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    description: 'PKCE S256 challenge: BASE64URL(SHA-256(code_verifier)).',
  })
  // Required as soon as a method is given: a method without a challenge would silently mean "no PKCE".
  @ValidateIf((dto: AuthenticateDirectDto) => dto.code_challenge !== undefined || dto.code_challenge_method !== undefined)
  @IsDefined({ message: 'code_challenge is required when code_challenge_method is given' })
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: 'code_challenge must be a base64url SHA-256 digest (43 characters)' })
  code_challenge?: string;

  @ApiPropertyOptional({ enum: ['S256'] })
  @ValidateIf((dto: AuthenticateDirectDto) => dto.code_challenge !== undefined || dto.code_challenge_method !== undefined)
  @Equals('S256', { message: 'code_challenge_method must be S256 and accompany a code_challenge' })
  code_challenge_method?: 'S256';
}
