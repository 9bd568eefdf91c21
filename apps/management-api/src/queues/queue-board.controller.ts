import { All, Body, Controller, Get, Headers, HttpCode, Inject, Post, Query, Req, Res, StreamableFile, UseGuards } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiExcludeController } from '@nestjs/swagger';
import { AcceptsFormBody, isSameOriginRequest, notFound, problem, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { Public } from '@sesame/guards';
import { BOARD_SESSION_COOKIE, BOARD_SESSION_SECONDS } from './board-access';
import { QueueBoard } from './queue-board';
import { QueueBoardGuard } from './queue-board.guard';
import { signInPage } from './sign-in.page';

type HeaderMap = Record<string, string | string[] | undefined>;

/**
 * Every path below the dashboard, up to seven segments deep (the board's deepest route has six):
 * explicit parameters instead of a wildcard, whose syntax Express (`*name`) and Fastify (`*`) do not share.
 */
const BOARD_PATHS = [
  '',
  ...Array.from({ length: 7 }, (_, depth) => Array.from({ length: depth + 1 }, (_, index) => `:s${index}`).join('/')),
];

/**
 * The queue dashboard at /api/v2/queues, inside Nest: the global per-IP limit and error handling
 * apply, the API-key guard is replaced by QueueBoardGuard (platform key or dashboard session).
 * Registered only when QUEUE_DASHBOARD=on and PLATFORM_API_KEY is set (see QueuesModule).
 */
@ApiExcludeController()
@Public()
@Controller({ path: 'queues', version: '2' })
export class QueueBoardController {
  private readonly origin: string;
  private readonly cookieAttributes: string;

  constructor(
    private readonly board: QueueBoard,
    private readonly adapterHost: HttpAdapterHost,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.origin = new URL(config.http.publicBaseUrl).origin;
    const secure = config.http.publicBaseUrl.startsWith('https:') ? '; Secure' : '';
    this.cookieAttributes = `Path=${board.basePath}; HttpOnly; SameSite=Strict; Max-Age=${BOARD_SESSION_SECONDS}${secure}`;
  }

  /** The sign-in form: the operator types the platform key once, the browser gets an hour's session. */
  @Get('session')
  session(@Res() response: unknown) {
    this.page(response, 200, signInPage(this.board.basePath));
  }

  @Post('session')
  @AcceptsFormBody()
  @HttpCode(303)
  signIn(@Body() form: Record<string, unknown>, @Headers() headers: HeaderMap, @Res() response: unknown) {
    if (!isSameOriginRequest(headers, this.origin)) throw problem('cross_site_request', 'Sign in from the dashboard’s own page');
    const session = this.board.signIn(typeof form?.key === 'string' ? form.key : '');
    if (!session) {
      this.page(response, 401, signInPage(this.board.basePath, 'That is not the platform key.'));
      return;
    }
    const adapter = this.adapterHost.httpAdapter;
    adapter.setHeader(response, 'Set-Cookie', `${BOARD_SESSION_COOKIE}=${session}; ${this.cookieAttributes}`);
    adapter.setHeader(response, 'Cache-Control', 'no-store');
    adapter.redirect(response, 303, `${this.board.basePath}/`);
  }

  @All(BOARD_PATHS)
  @UseGuards(QueueBoardGuard)
  async dashboard(
    @Req() request: { method: string; url: string },
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
    @Headers() headers: HeaderMap,
    @Res() response: unknown,
  ) {
    const path = new URL(request.url, 'http://board').pathname.slice(this.board.basePath.length) || '/';
    const answer = await this.board.handle({ method: request.method, path, query, body, headers });
    if (!answer) throw notFound('queue dashboard page');
    const adapter = this.adapterHost.httpAdapter;
    if ('file' in answer) {
      adapter.setHeader(response, 'Cache-Control', 'private, max-age=3600');
      adapter.reply(response, new StreamableFile(answer.file, { type: answer.contentType, length: answer.file.length }), 200);
      return;
    }
    adapter.setHeader(response, 'Cache-Control', 'no-store');
    if ('html' in answer) this.page(response, answer.status, answer.html);
    else adapter.reply(response, answer.json, answer.status);
  }

  private page(response: unknown, status: number, html: string): void {
    const adapter = this.adapterHost.httpAdapter;
    adapter.setHeader(response, 'Content-Type', 'text/html; charset=utf-8');
    adapter.setHeader(response, 'Cache-Control', 'no-store');
    adapter.setHeader(response, 'X-Frame-Options', 'DENY');
    adapter.reply(response, html, status);
  }
}
