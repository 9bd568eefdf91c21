import { Body, Controller, Get, Header, HttpCode, Inject, Post, Redirect, Req, Res, UseGuards } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiExcludeController } from '@nestjs/swagger';
import { ProblemException, RequestId, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { EndpointLimit, EndpointThrottlerGuard } from '@sesame/throttler';
import { CsrfTokens } from '../csrf/csrf';
import { BufferedResponse } from '../session/buffered-response';
import { ConsoleSessionService } from '../session/console-session.service';
import { SignInFormDto } from '../session/session.dto';
import { checkInboxPage, notMemberPage, PAGE_POLICY, signInPage, tenantsPage } from './console-pages';

const SIGN_IN_ERRORS: Record<string, string> = {
  login_link_expired: 'That sign-in link has expired. Ask for a new one.',
  login_link_used: 'That sign-in link has already been used. Ask for a new one.',
  access_denied: 'This account is blocked.',
};

/**
 * A minimal server-rendered console at /console until its pages arrive: sign in, see your
 * tenants, or a page saying you belong to none, and sign out. Forms carry the CSRF token.
 */
@ApiExcludeController()
@Controller('console')
export class PagesController {
  constructor(
    private readonly sessions: ConsoleSessionService,
    private readonly csrf: CsrfTokens,
    private readonly adapterHost: HttpAdapterHost,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @Header('Content-Security-Policy', PAGE_POLICY)
  @Header('X-Frame-Options', 'DENY')
  async home(@Req() request: { query?: Record<string, unknown> }, @Res({ passthrough: true }) response: unknown, @RequestId() requestId: string | null): Promise<string> {
    const buffered = new BufferedResponse();
    try {
      const csrf = this.csrf.tokenFor(request as never, buffered);
      const session = await this.sessions.current(request, buffered, requestId);
      if (!session) {
        const code = request.query?.sign_in_error;
        return signInPage(csrf, typeof code === 'string' ? (SIGN_IN_ERRORS[code] ?? 'The sign-in did not work. Try again.') : null);
      }
      return session.memberships.length === 0 ? notMemberPage(session.email, csrf) : tenantsPage(session.email, session.memberships, csrf);
    } finally {
      buffered.copyHeadersTo(this.adapterHost.httpAdapter, response);
    }
  }

  @Post('sign_in')
  @HttpCode(200)
  @UseGuards(EndpointThrottlerGuard)
  @EndpointLimit('ip', { name: 'console-sign-in' })
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @Header('Content-Security-Policy', PAGE_POLICY)
  async signIn(@Req() request: unknown, @Res({ passthrough: true }) response: unknown, @Body() body: SignInFormDto): Promise<string> {
    const buffered = new BufferedResponse();
    try {
      const started = await this.sessions.signIn(request, buffered, body.email);
      return checkInboxPage(started.email, started.sentence);
    } catch (error) {
      if (!(error instanceof ProblemException) || error.status >= 500) throw error;
      this.adapterHost.httpAdapter.status(response, error.status);
      return signInPage(this.csrf.tokenFor(request as never, buffered), error.detail);
    } finally {
      buffered.copyHeadersTo(this.adapterHost.httpAdapter, response);
    }
  }

  @Post('sign_out')
  @Redirect()
  async signOut(@Req() request: unknown, @Res({ passthrough: true }) response: unknown): Promise<{ url: string; statusCode: number }> {
    const buffered = new BufferedResponse();
    try {
      await this.sessions.signOut(request, buffered);
    } finally {
      buffered.copyHeadersTo(this.adapterHost.httpAdapter, response);
    }
    return { url: `${this.config.console.publicUrl}/`, statusCode: 303 };
  }
}
