import { Body, Controller, Header, Headers, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { HttpAdapterHost } from '@nestjs/core';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { ApiPublic, RequestId } from '@sesame/common';
import { ClientIp, EndpointLimit, EndpointThrottlerGuard } from '@sesame/throttler';
import { OAuthError } from '../oauth/oauth-error.dto';
import { SameOriginFormGuard } from '../pages/same-origin-form.guard';
import {
  PasskeyOptionsResponse,
  PasskeyRegisteredResponse,
  PasskeyRegistrationOptionsDto,
  PasskeyRegistrationVerifyDto,
  PasskeySignedInResponse,
  PasskeySignInOptionsDto,
  PasskeySignInVerifyDto,
} from './dto/passkey.dto';
import { PasskeyPageService } from './passkey-page.service';

const COOKIES = ApiHeader({
  name: 'cookie',
  required: false,
  description:
    'The hosted page’s CSRF cookie (`sesame_csrf`); for registration also the `sesame_attempt` cookie of the browser that asked for the e-mail.',
});
/** Optional, as for every route: a document that required it would mislead every generated client. */
const USER_AGENT = ApiHeader({
  name: 'user-agent',
  required: false,
  description: 'Names the device in the login activity and the passkey’s default name.',
});
const CSRF_REFUSED = ApiForbiddenResponse({
  type: OAuthError,
  description:
    '`csrf_failed` (no CSRF cookie, or a value that does not match it), `cross_site_request` (sent from another site), `passkeys_off` (the organization has passkeys off).',
});

/**
 * The hosted login page's passkey requests (its script calls them with fetch): JSON in and out,
 * protected like the page's forms (the CSRF cookie and value, and same-origin only). Thin: the
 * rules are in PasskeySignInService and PasskeyRegistrationService.
 */
@ApiTags('Hosted login page')
@ApiPublic()
@UseGuards(SameOriginFormGuard, EndpointThrottlerGuard)
@EndpointLimit('ip')
@Controller({ path: 'authorize/passkey', version: '1' })
export class PasskeyController {
  constructor(
    private readonly page: PasskeyPageService,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  @Post('options')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'A one-time challenge to sign in with a passkey, for this authorize request in this browser',
    description: 'Discoverable credentials only (no list of passkeys): the answer is the same whoever asks. User verification is required.',
  })
  @COOKIES
  @ApiOkResponse({ type: PasskeyOptionsResponse, description: 'PublicKeyCredentialRequestOptions as JSON.' })
  @ApiBadRequestResponse({
    type: OAuthError,
    description: '`invalid_request`, `invalid_client`, `invalid_redirect_uri`: the authorize request is not valid.',
  })
  @CSRF_REFUSED
  signInOptions(@Body() body: PasskeySignInOptionsDto, @Headers('cookie') cookie?: string) {
    return this.page.signInOptions({ ...body }, { cookieHeader: cookie });
  }

  @Post('verify')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Signs in with a passkey: the browser goes on to redirect_uri with code and state, as after an e-mailed link',
    description:
      'The challenge is used once, whatever the outcome. The passkey must be of a user of the application’s organization who is not blocked.',
  })
  @COOKIES
  @ApiOkResponse({ type: PasskeySignedInResponse, description: 'Signed in (an autologin walk also sets its cookie).' })
  @ApiBadRequestResponse({
    type: OAuthError,
    description:
      '`passkey_challenge_invalid` (used, expired, or another request’s challenge), `passkey_refused` (the passkey cannot sign in here), `invalid_request`.',
  })
  @CSRF_REFUSED
  @USER_AGENT
  async signInVerify(
    @Body() body: PasskeySignInVerifyDto,
    @Res({ passthrough: true }) response: unknown,
    @RequestId() requestId: string | null,
    @ClientIp() ip: string,
    @Headers('cookie') cookie?: string,
    @Headers('user-agent') userAgent?: string,
  ): Promise<PasskeySignedInResponse> {
    const signedIn = await this.page.signInVerify({ ...body }, body.response as unknown as AuthenticationResponseJSON, {
      cookieHeader: cookie,
      requestId,
      userAgent,
      ip,
    });
    if (signedIn.cookie) this.adapterHost.httpAdapter.setHeader(response, 'Set-Cookie', signedIn.cookie);
    return { redirect: signedIn.redirect };
  }

  @Post('register/options')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'A one-time challenge to create a passkey, right after an e-mailed login in this browser',
    description:
      'Only with the registration id of the offer screen an e-mailed login just led to, in the browser that asked for the e-mail.',
  })
  @COOKIES
  @ApiOkResponse({
    type: PasskeyOptionsResponse,
    description: 'PublicKeyCredentialCreationOptions as JSON (attestation none, resident key, user verification required).',
  })
  @ApiBadRequestResponse({ type: OAuthError, description: '`invalid_request`, `invalid_client`.' })
  @ApiForbiddenResponse({
    type: OAuthError,
    description:
      '`passkey_registration_not_allowed` (no such offer for this browser, or expired or used), `csrf_failed`, `cross_site_request`, `passkeys_off`.',
  })
  registrationOptions(@Body() body: PasskeyRegistrationOptionsDto, @Headers('cookie') cookie?: string) {
    return this.page.registrationOptions(body, { cookieHeader: cookie });
  }

  @Post('register/verify')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Stores the new passkey (reported as `passkey.registered` and audited)',
    description: 'The challenge is used once, whatever the outcome; the offer registers one passkey.',
  })
  @COOKIES
  @ApiOkResponse({ type: PasskeyRegisteredResponse })
  @ApiBadRequestResponse({
    type: OAuthError,
    description:
      '`passkey_refused` (the answer does not verify, or its credential id is over 1023 bytes), `invalid_request`, `invalid_client`.',
  })
  @ApiForbiddenResponse({
    type: OAuthError,
    description:
      '`passkey_registration_not_allowed` (no challenge of such an offer for this browser, or expired or used; or the user already has 20 passkeys), `csrf_failed`, `cross_site_request`, `passkeys_off`.',
  })
  @ApiConflictResponse({ type: OAuthError, description: '`passkey_exists`: this credential is already registered.' })
  @USER_AGENT
  async registrationVerify(
    @Body() body: PasskeyRegistrationVerifyDto,
    @RequestId() requestId: string | null,
    @ClientIp() ip: string,
    @Headers('cookie') cookie?: string,
    @Headers('user-agent') userAgent?: string,
  ): Promise<PasskeyRegisteredResponse> {
    await this.page.registrationVerify(body, body.response as unknown as RegistrationResponseJSON, {
      cookieHeader: cookie,
      requestId,
      userAgent,
      ip,
    });
    return { registered: true };
  }
}
