import { Body, Controller, Get, Header, Headers, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { bearerToken, ClientPrincipal, CurrentClient } from '@sesame/guards';
import { ClientIp, SkipGlobalLimit } from '@sesame/throttler';
import { ClientAuthenticated } from '../oauth/client-authenticated.decorator';
import { OAuthError } from '../oauth/oauth-error.dto';
import { AccessTokensService } from './access-tokens.service';
import { IntrospectionResponse, TokenForm, TokenResponse, UserInfoResponse, VerifyForm } from './dto/token.dto';
import { TokenExchangeService } from './token-exchange.service';

@ApiTags('Tokens')
@Controller({ version: '1' })
export class TokensController {
  constructor(
    private readonly exchange: TokenExchangeService,
    private readonly tokens: AccessTokensService,
  ) {}

  @Post('verify')
  @HttpCode(200)
  @ClientAuthenticated({ methods: ['client_secret_basic', 'client_secret_post', 'none'], form: true })
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({
    summary: 'Exchange an authorization code for tokens',
    description:
      'Client authentication: HTTP Basic (preferred), client_id + client_secret in the body (less secure), or for native apps client_id alone with the PKCE code_verifier. ' +
      'Codes work once for 5 minutes, bound to the application and to the exact redirect_uri; a second use by that application revokes the tokens issued from the code. ' +
      'A code without PKCE challenge is exchanged only by a client with a secret: the code of an autologin stop only with `autologin=true`, any other only without it.',
  })
  @ApiOkResponse({ type: TokenResponse })
  @ApiBadRequestResponse({ type: OAuthError, description: '`invalid_request`, `invalid_grant`, `unsupported_grant_type`.' })
  @ApiUnauthorizedResponse({
    type: OAuthError,
    description: '`invalid_client` (wrong or missing credentials; a client secret presented for a native application).',
  })
  @ApiTooManyRequestsResponse({
    type: OAuthError,
    description: '`rate_limited`: ENDPOINT_LIMITS for the tenant; native apps (client_id alone) are counted per tenant and client IP.',
  })
  verify(@CurrentClient() client: ClientPrincipal, @Body() form: VerifyForm) {
    return this.exchange.exchange(client, form);
  }

  @Get('userinfo')
  // Application backends call userinfo on every request of their users, from a few addresses, so a
  // per-IP limit would throttle them; only failed lookups are limited per address (FailedLookupLimiter),
  // an IPv6 address counted with its /64 like every other per-address limit.
  @SkipGlobalLimit()
  @Header('Cache-Control', 'no-store')
  @ApiBearerAuth('accessToken')
  @ApiOperation({ summary: 'The user an access token belongs to' })
  @ApiOkResponse({ type: UserInfoResponse })
  @ApiUnauthorizedResponse({ type: OAuthError, description: 'Missing, invalid, expired or revoked token (RFC 6750 WWW-Authenticate).' })
  @ApiTooManyRequestsResponse({
    type: OAuthError,
    description: '`rate_limited`: this address sent more than GLOBAL_RATE_LIMIT unknown tokens in a minute.',
  })
  userInfo(@Headers('authorization') authorization: string | undefined, @ClientIp() ip: string) {
    return this.tokens.userInfo(bearerToken(authorization), ip);
  }

  @Post('revoke')
  @HttpCode(200)
  @ClientAuthenticated({ methods: ['client_secret_basic', 'client_secret_post', 'none'], form: true })
  @ApiOperation({ summary: 'Revoke an access token (RFC 7009); unknown tokens are answered the same way' })
  @ApiOkResponse({ description: 'Revoked, or nothing to revoke.' })
  @ApiBadRequestResponse({
    type: OAuthError,
    description: '`invalid_request` (no token, not a form, several client authentication methods).',
  })
  @ApiUnauthorizedResponse({
    type: OAuthError,
    description: '`invalid_client` (wrong or missing credentials; a client secret presented for a native application).',
  })
  @ApiTooManyRequestsResponse({
    type: OAuthError,
    description: '`rate_limited`: ENDPOINT_LIMITS for the tenant; native apps (client_id alone) are counted per tenant and client IP.',
  })
  async revoke(@CurrentClient() client: ClientPrincipal, @Body() form: TokenForm): Promise<void> {
    await this.tokens.revoke(client, form.token);
  }

  @Post('introspect')
  @HttpCode(200)
  @ClientAuthenticated({ methods: ['client_secret_basic', 'client_secret_post'], form: true })
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: "Check an access token (RFC 7662): only tokens of the calling application's organization are active" })
  @ApiOkResponse({ type: IntrospectionResponse })
  @ApiBadRequestResponse({
    type: OAuthError,
    description: '`invalid_request` (no token, not a form, several client authentication methods).',
  })
  @ApiUnauthorizedResponse({ type: OAuthError, description: '`invalid_client` (introspection needs the client secret).' })
  introspect(@CurrentClient() client: ClientPrincipal, @Body() form: TokenForm) {
    return this.tokens.introspect(client, form.token);
  }
}
