import { Body, Controller, Header, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { RequestId } from '@sesame/common';
import { ClientPrincipal, CurrentClient } from '@sesame/guards';
import { LoginCodeResponse } from '../direct-auth/dto/login-code.dto';
import { ClientAuthenticated } from '../oauth/client-authenticated.decorator';
import { OAuthError } from '../oauth/oauth-error.dto';
import { DirectPasskeyCallers } from './direct-passkey-context';
import { DirectPasskeyRegistrationService } from './direct-passkey-registration.service';
import { DirectPasskeySignInService } from './direct-passkey-sign-in.service';
import {
  DirectPasskeyOptionsResponse,
  DirectPasskeyRegisteredResponse,
  DirectPasskeyRegistrationOptionsDto,
  DirectPasskeyRegistrationVerifyDto,
  DirectPasskeySignInOptionsDto,
  DirectPasskeySignInVerifyDto,
} from './dto/direct-passkey.dto';

const REFUSED_CALLER = ApiForbiddenResponse({
  type: OAuthError,
  description:
    '`passkeys_off` (the organization has passkeys off), `plan_not_supported` (not Pro or Enterprise), `passkey_registration_not_allowed` (registration only).',
});

/**
 * Passkeys on the application's own pages (direct authentication): its server asks for the
 * ceremony's options, its page runs the ceremony, its server sends the answer here. Client
 * authentication as the other direct-authentication routes. Thin: the rules are in
 * DirectPasskeySignInService and DirectPasskeyRegistrationService.
 */
@ApiTags('Direct authentication')
@ApiUnauthorizedResponse({ type: OAuthError, description: '`invalid_client`: missing or wrong client credentials.' })
@ClientAuthenticated()
@Controller({ path: 'passkey_direct', version: '1' })
export class DirectPasskeysController {
  constructor(
    private readonly callers: DirectPasskeyCallers,
    private readonly signIn: DirectPasskeySignInService,
    private readonly registration: DirectPasskeyRegistrationService,
  ) {}

  @Post('options')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'A one-time challenge to sign in with a passkey on the application’s page, for this login',
    description:
      'Discoverable credentials only (no list of passkeys): the answer is the same whoever asks. The challenge is bound to the application, the origin and the login (redirect_uri, state, PKCE challenge, nonce), and lives 10 minutes.',
  })
  @ApiOkResponse({ type: DirectPasskeyOptionsResponse, description: 'PublicKeyCredentialRequestOptions as JSON, for the page’s ceremony.' })
  @ApiBadRequestResponse({
    type: OAuthError,
    description: '`invalid_request`: bad input, an origin or redirect_uri the application may not use.',
  })
  @REFUSED_CALLER
  async signInOptions(@CurrentClient() client: ClientPrincipal, @Body() body: DirectPasskeySignInOptionsDto) {
    return this.signIn.options(await this.callers.require(client, body.origin), {
      redirectUri: body.redirect_uri,
      state: body.state,
      codeChallenge: body.code_challenge,
      nonce: body.nonce ?? null,
      requestId: null,
      userAgent: null,
      ip: null,
    });
  }

  @Post('verify')
  @HttpCode(200)
  // The answer carries an authorization code.
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Signs in with a passkey: the code for POST /v1/verify, as POST /v1/login_code answers it',
    description:
      'The same login fields as the options (the challenge answers only them). The challenge is used once, whatever the outcome. The passkey must be of a user of the application’s organization who is not blocked, registered under the origin’s host.',
  })
  @ApiOkResponse({ type: LoginCodeResponse })
  @ApiBadRequestResponse({
    type: OAuthError,
    description:
      '`passkey_challenge_invalid` (used, expired, or another login’s, origin’s or application’s challenge), `passkey_refused` (the passkey cannot sign in here), `invalid_request`.',
  })
  @REFUSED_CALLER
  async signInVerify(
    @CurrentClient() client: ClientPrincipal,
    @Body() body: DirectPasskeySignInVerifyDto,
    @RequestId() requestId: string | null,
  ): Promise<LoginCodeResponse> {
    return this.signIn.verify(
      await this.callers.require(client, body.origin),
      {
        redirectUri: body.redirect_uri,
        state: body.state,
        codeChallenge: body.code_challenge,
        nonce: body.nonce ?? null,
        requestId,
        userAgent: body.userAgent ?? null,
        ip: body.userIp ?? null,
      },
      body.response as unknown as AuthenticationResponseJSON,
    );
  }

  @Post('register/options')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'A one-time challenge to create a passkey on the application’s page, right after a login',
    description:
      'With the access token the login issued, within 10 minutes of the sign-in; the token registers one passkey. Asking again gives a new challenge.',
  })
  @ApiOkResponse({
    type: DirectPasskeyOptionsResponse,
    description: 'PublicKeyCredentialCreationOptions as JSON (attestation none, resident key, user verification required).',
  })
  @ApiBadRequestResponse({ type: OAuthError, description: '`invalid_request`: bad input, or an origin the application may not use.' })
  @REFUSED_CALLER
  async registrationOptions(@CurrentClient() client: ClientPrincipal, @Body() body: DirectPasskeyRegistrationOptionsDto) {
    return this.registration.options(await this.callers.require(client, body.origin), {
      accessToken: body.access_token,
      requestId: null,
      userAgent: null,
      ip: null,
    });
  }

  @Post('register/verify')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Stores the new passkey under the origin’s host (reported as `passkey.registered` and audited)',
    description: 'The challenge is used once, whatever the outcome; the access token registers one passkey.',
  })
  @ApiOkResponse({ type: DirectPasskeyRegisteredResponse })
  @ApiBadRequestResponse({
    type: OAuthError,
    description:
      '`passkey_challenge_invalid` (no current challenge of this token for this origin: used, expired or never asked), `passkey_refused` (the answer does not verify), `invalid_request`.',
  })
  @REFUSED_CALLER
  @ApiConflictResponse({ type: OAuthError, description: '`passkey_exists`: this credential is already registered.' })
  async registrationVerify(
    @CurrentClient() client: ClientPrincipal,
    @Body() body: DirectPasskeyRegistrationVerifyDto,
    @RequestId() requestId: string | null,
  ): Promise<DirectPasskeyRegisteredResponse> {
    const registered = await this.registration.verify(
      await this.callers.require(client, body.origin),
      { accessToken: body.access_token, requestId, userAgent: body.userAgent ?? null, ip: body.userIp ?? null },
      body.response as unknown as RegistrationResponseJSON,
    );
    return { registered: true, ...registered };
  }
}
