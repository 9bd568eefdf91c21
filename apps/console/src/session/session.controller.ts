import { Body, Controller, Get, Header, HttpCode, Post, Query, Redirect, Req, Res, UseGuards } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { ApiPublic, ProblemDetails, RequestId } from '@sesame/common';
import { EndpointLimit, EndpointThrottlerGuard } from '@sesame/throttler';
import { CsrfTokens } from '../csrf/csrf';
import { BufferedResponse } from '../http/buffered-response';
import { ConsoleSessionService } from './console-session.service';
import { SessionResponse, SignInCodeDto, SignInDto, SignInResponse, SignInStatusQuery, SignInStatusResponse } from './session.dto';

const CSRF_REFUSED = {
  type: ProblemDetails,
  description:
    'From another origin (`cross_origin_request`), or without the CSRF token of GET /console/api/session (`csrf_token_invalid`).',
};
const SESAME_DOWN = { type: ProblemDetails, description: 'Sesame could not be reached (`sesame_unavailable`).' };
const NOT_STARTED_HERE = {
  type: ProblemDetails,
  description: 'The sign-in was not started in this browser, or too long ago (`sign_in_not_found`).',
};

/** The console's session, as JSON for its pages: who is signed in, signing in by e-mailed link, signing out. */
@ApiTags('Session')
@ApiPublic()
@Controller('console/api')
export class SessionController {
  constructor(
    private readonly sessions: ConsoleSessionService,
    private readonly csrf: CsrfTokens,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  @Get('session')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Who is signed in, the tenants they belong to, and the CSRF token for changes' })
  @ApiOkResponse({ type: SessionResponse })
  @ApiBadGatewayResponse(SESAME_DOWN)
  async session(
    @Req() request: unknown,
    @Res({ passthrough: true }) response: unknown,
    @RequestId() requestId: string | null,
  ): Promise<SessionResponse> {
    const buffered = new BufferedResponse();
    try {
      const csrfToken = this.csrf.tokenFor(request as never, buffered);
      const session = await this.sessions.current(request, buffered, requestId);
      return session
        ? { signedIn: true, email: session.email, memberships: session.memberships as SessionResponse['memberships'], csrfToken }
        : { signedIn: false, email: null, memberships: [], csrfToken };
    } finally {
      buffered.copyHeadersTo(this.adapterHost.httpAdapter, response);
    }
  }

  @Post('sign_in')
  @HttpCode(200)
  @UseGuards(EndpointThrottlerGuard)
  @EndpointLimit('ip', { name: 'console-sign-in' })
  @ApiOperation({
    summary:
      'E-mail a sign-in link; answers what the waiting page shows: the sentence (the e-mail shows it too) and the approval number (only there)',
  })
  @ApiOkResponse({ type: SignInResponse })
  @ApiBadRequestResponse({ type: ProblemDetails, description: 'Not an e-mail address (`validation_failed`).' })
  @ApiForbiddenResponse(CSRF_REFUSED)
  @ApiTooManyRequestsResponse({
    type: ProblemDetails,
    description:
      'A link was sent to this address moments ago (`too_early`, with `allowedDate`), or too many sign-ins from this address (`rate_limited`).',
  })
  @ApiBadGatewayResponse(SESAME_DOWN)
  async signIn(@Req() request: unknown, @Res({ passthrough: true }) response: unknown, @Body() body: SignInDto): Promise<SignInResponse> {
    const buffered = new BufferedResponse();
    try {
      const started = await this.sessions.signIn(request, buffered, body.email);
      return {
        ...started,
        allowedDate: started.allowedDate.toISOString(),
        message: `Check your inbox: we sent a sign-in link to ${started.email}.`,
      };
    } finally {
      buffered.copyHeadersTo(this.adapterHost.httpAdapter, response);
    }
  }

  @Post('sign_in/code')
  @HttpCode(200)
  @UseGuards(EndpointThrottlerGuard)
  @EndpointLimit('ip', { name: 'console-sign-in' })
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Sign in with the 6-digit code of the e-mail, in the browser that asked: sets the session cookie' })
  @ApiOkResponse({ type: SignInStatusResponse, description: '`completed`: signed in.' })
  @ApiBadRequestResponse({
    type: ProblemDetails,
    description:
      'Sesame’s refusal, with its code: `invalid_login_code`, `login_code_disabled` (too many wrong codes for the address: use the link), `login_attempt_locked`, `login_link_used`, `login_link_expired`, `access_denied`, `invalid_request`.',
  })
  @ApiForbiddenResponse(CSRF_REFUSED)
  @ApiNotFoundResponse(NOT_STARTED_HERE)
  @ApiBadGatewayResponse(SESAME_DOWN)
  async signInWithCode(
    @Req() request: unknown,
    @Res({ passthrough: true }) response: unknown,
    @Body() body: SignInCodeDto,
  ): Promise<SignInStatusResponse> {
    const buffered = new BufferedResponse();
    try {
      await this.sessions.signInWithCode(request, buffered, body.loginAttemptId, body.code);
      return { status: 'completed' };
    } finally {
      buffered.copyHeadersTo(this.adapterHost.httpAdapter, response);
    }
  }

  @Get('sign_in/status')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary:
      'Where a sign-in started in this browser stands, held while it is pending: once the link is approved on another device, this signs the browser in (sets the session cookie)',
  })
  @ApiOkResponse({ type: SignInStatusResponse })
  @ApiBadRequestResponse({ type: ProblemDetails, description: 'A malformed loginAttemptId or wait (`validation_failed`).' })
  @ApiNotFoundResponse(NOT_STARTED_HERE)
  @ApiBadGatewayResponse(SESAME_DOWN)
  async signInStatus(
    @Req() request: unknown,
    @Res({ passthrough: true }) response: unknown,
    @Query() query: SignInStatusQuery,
  ): Promise<SignInStatusResponse> {
    const buffered = new BufferedResponse();
    try {
      return { status: await this.sessions.signInStatus(request, buffered, query.loginAttemptId, query.wait ?? 20) };
    } finally {
      buffered.copyHeadersTo(this.adapterHost.httpAdapter, response);
    }
  }

  @Post('sign_out')
  @HttpCode(204)
  @ApiOperation({ summary: 'Sign out: the session cookie is cleared and the access token revoked at Sesame' })
  @ApiNoContentResponse({ description: 'Signed out (also when nobody was signed in).' })
  @ApiForbiddenResponse(CSRF_REFUSED)
  @ApiBadGatewayResponse({
    type: ProblemDetails,
    description: 'The token could not be revoked (`sesame_unavailable`); the cookie is cleared all the same.',
  })
  async signOut(@Req() request: unknown, @Res({ passthrough: true }) response: unknown): Promise<void> {
    const buffered = new BufferedResponse();
    try {
      await this.sessions.signOut(request, buffered);
    } finally {
      buffered.copyHeadersTo(this.adapterHost.httpAdapter, response);
    }
  }
}

/** Where Sesame sends the browser back after the e-mailed link. */
@ApiTags('Session')
@ApiPublic()
@Controller('console/auth')
export class CallbackController {
  constructor(
    private readonly sessions: ConsoleSessionService,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  @Get('callback')
  @Redirect()
  @Header('Cache-Control', 'no-store')
  @Header('Referrer-Policy', 'no-referrer')
  @ApiOperation({
    summary:
      "The sign-in callback (code and state from Sesame): sets the session cookie and goes to the console's home, or to `?sign_in_error=<code>`",
  })
  @ApiResponse({
    status: 303,
    description: `To the console's home (CONSOLE_PUBLIC_URL/), with \`sign_in_error\` when the sign-in failed (e.g. \`login_link_expired\`, \`invalid_state\`).`,
  })
  async callback(@Req() request: unknown, @Res({ passthrough: true }) response: unknown): Promise<{ url: string; statusCode: number }> {
    const buffered = new BufferedResponse();
    const url = await this.sessions.callback(request, buffered);
    buffered.copyHeadersTo(this.adapterHost.httpAdapter, response);
    return { url, statusCode: 303 };
  }
}
