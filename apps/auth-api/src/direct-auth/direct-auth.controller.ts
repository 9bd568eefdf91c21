import { Body, Controller, Get, Header, HttpCode, Optional, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { RequestId, SesameMetrics, UuidParam } from '@sesame/common';
import { ClientPrincipal, CurrentClient } from '@sesame/guards';
import { ClientAuthenticated } from '../oauth/client-authenticated.decorator';
import { OAuthError } from '../oauth/oauth-error.dto';
import { DirectAuthService } from './direct-auth.service';
import { AuthenticateDirectDto } from './dto/authenticate-direct.dto';
import { LoginAttemptResponse, LoginAttemptStatusQuery, LoginAttemptStatusResponse, TooEarlyResponse } from './dto/login-attempt.response';
import { LoginCodeDto, LoginCodeResponse } from './dto/login-code.dto';
import { LoginAttemptService } from './login-attempt.service';
import { LoginCodeService } from './login-code.service';

@ApiTags('Direct authentication')
@ApiUnauthorizedResponse({
  type: OAuthError,
  description: '`invalid_client`: missing or wrong client credentials, or credentials of a native application (it has no secret).',
})
@ClientAuthenticated()
@Controller({ version: '1' })
export class DirectAuthController {
  constructor(
    private readonly directAuth: DirectAuthService,
    private readonly attempts: LoginAttemptService,
    private readonly codes: LoginCodeService,
    @Optional() private readonly metrics?: SesameMetrics,
  ) {}

  @Post('authenticate_direct')
  @HttpCode(200)
  @ApiOperation({
    summary: 'E-mail a one-time login link (web applications, Pro and Enterprise plans)',
    description:
      'Login type is always login link and method always local. The user opens the link, presses Continue and lands on redirect_uri with code and state. ' +
      'Respect allowedDate: earlier requests for the same address answer 429.',
  })
  @ApiOkResponse({ type: LoginAttemptResponse })
  @ApiBadRequestResponse({
    type: OAuthError,
    description: '`invalid_request` (bad input, or a redirect_uri outside the whitelist or with a path starting with `//`).',
  })
  @ApiForbiddenResponse({ type: OAuthError, description: '`plan_not_supported`: the tenant is not on Pro or Enterprise.' })
  @ApiTooManyRequestsResponse({
    type: TooEarlyResponse,
    description: 'Before allowedDate for this address (with Retry-After); nothing is sent.',
  })
  @ApiServiceUnavailableResponse({
    type: OAuthError,
    description:
      '`temporarily_unavailable`: the mail queue is unreachable; the attempt was withdrawn and the backoff of the address restored.',
  })
  async authenticateDirect(
    @CurrentClient() client: ClientPrincipal,
    @Body() body: AuthenticateDirectDto,
    @RequestId() requestId: string | null,
  ) {
    const attempt = await this.directAuth.authenticate(client, body, requestId);
    this.metrics?.loginsStarted.inc({ flow: 'direct' });
    return attempt;
  }

  @Post('login_code')
  @HttpCode(200)
  // The answer carries an authorization code.
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Sign in with the 6-digit code of the login e-mail, typed where the login started',
    description:
      'The code and the e-mailed link are one credential: whichever is used first wins, once. The answer is what the link would have delivered to redirect_uri ' +
      '(a code bound to the attempt’s PKCE challenge, and its state), as JSON. Five wrong codes lock the attempt, and its link stops working too.',
  })
  @ApiOkResponse({ type: LoginCodeResponse })
  @ApiBadRequestResponse({
    type: OAuthError,
    description:
      '`invalid_request` (malformed), `invalid_login_code` (wrong; counted), `login_attempt_locked` (five wrong codes), `login_link_used` (already used, by code or link), `login_link_expired`.',
  })
  @ApiForbiddenResponse({ type: OAuthError, description: '`access_denied`: the user is blocked.' })
  @ApiNotFoundResponse({ type: OAuthError, description: "Unknown, or another application's attempt." })
  async loginCode(@CurrentClient() client: ClientPrincipal, @Body() body: LoginCodeDto): Promise<LoginCodeResponse> {
    return this.codes.useDirect(client.applicationId, body.loginAttemptId, body.code);
  }

  @Get('login_attempt/:loginAttemptId')
  // An answer may carry an authorization code.
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Status of a login attempt started by this application',
    description:
      'With `wait`, a `pending` attempt holds the request until its status changes or the time is up (no tight polling). ' +
      'When the attempt was approved from another device, the first answer after it carries the authorization code.',
  })
  @ApiOkResponse({ type: LoginAttemptStatusResponse })
  @ApiBadRequestResponse({ type: OAuthError, description: '`invalid_request`: wait is not a whole number from 0 to 25.' })
  @ApiNotFoundResponse({ type: OAuthError, description: "Unknown, or another application's attempt." })
  async status(
    @CurrentClient() client: ClientPrincipal,
    @UuidParam('loginAttemptId') loginAttemptId: string,
    @Query() query: LoginAttemptStatusQuery,
  ): Promise<LoginAttemptStatusResponse> {
    return (await this.attempts.status(client.applicationId, loginAttemptId, query.wait ?? 0)).answer;
  }
}
