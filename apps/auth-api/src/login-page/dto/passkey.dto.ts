import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsString, IsUUID, MaxLength } from 'class-validator';
import { Omittable } from '@sesame/common';

/** The hosted page's request, as its form's hidden fields carry it, and the form's CSRF value. */
export class PasskeySignInOptionsDto {
  @ApiProperty({ enum: ['code'] }) @IsIn(['code']) response_type: string;
  @ApiProperty() @IsString() @MaxLength(200) client_id: string;
  @ApiProperty() @IsString() @MaxLength(2048) redirect_uri: string;
  @ApiProperty({ maxLength: 1024 }) @IsString() @MaxLength(1024) state: string;
  @ApiProperty({ description: 'PKCE S256 challenge of the request.' }) @IsString() @MaxLength(128) code_challenge: string;
  @ApiProperty({ enum: ['S256'] }) @IsIn(['S256']) code_challenge_method: string;
  @ApiPropertyOptional() @Omittable() @IsString() @MaxLength(512) nonce?: string;
  @ApiPropertyOptional() @Omittable() @IsString() @MaxLength(200) ui_locales?: string;
  @ApiProperty({ description: 'The CSRF value of the sign-in form; must match the `sesame_csrf` cookie.' })
  @IsString()
  @MaxLength(200)
  csrf: string;
}

/** A WebAuthn answer as @simplewebauthn/browser sends it (the library checks every field of it). */
const RESPONSE_DOC = {
  type: 'object',
  additionalProperties: true,
  description: 'The browser’s PublicKeyCredential as JSON (`id`, `rawId`, `type`, `response`, `clientExtensionResults`, …).',
} as const;

export class PasskeySignInVerifyDto extends PasskeySignInOptionsDto {
  @ApiProperty(RESPONSE_DOC)
  @IsObject()
  response: Record<string, unknown>;
}

/** The registration offer's grant (shown on the offer screen) and the CSRF value. */
export class PasskeyRegistrationOptionsDto {
  @ApiProperty() @IsString() @MaxLength(200) client_id: string;
  @ApiProperty({ format: 'uuid', description: 'The offer screen’s registration id.' }) @IsUUID() registration: string;
  @ApiProperty({ description: 'The CSRF value of the offer screen; must match the `sesame_csrf` cookie.' })
  @IsString()
  @MaxLength(200)
  csrf: string;
}

export class PasskeyRegistrationVerifyDto extends PasskeyRegistrationOptionsDto {
  @ApiProperty(RESPONSE_DOC)
  @IsObject()
  response: Record<string, unknown>;
}

export class PasskeySignedInResponse {
  @ApiProperty({ description: 'Where the page goes on: redirect_uri with code and state, or the first stop of an autologin walk.' })
  redirect: string;
}

export class PasskeyRegisteredResponse {
  @ApiProperty({ example: true }) registered: boolean;
}

/** WebAuthn options as JSON, as @simplewebauthn/browser takes them. */
export class PasskeyOptionsResponse {
  @ApiProperty({ description: 'The one-time challenge (base64url).' }) challenge: string;
  @ApiPropertyOptional({ description: 'The relying party id: the host of Sesame’s public address.' }) rpId?: string;
}
