import { Controller, Get, Header, HttpServer, Param, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiExcludeController } from '@nestjs/swagger';
import { notFound, problem, rawRequest } from '@sesame/common';
import { ConsoleWeb, WebFile } from './console-web';

/**
 * The pages' policy: scripts, styles and requests of the console's own origin only; never framed.
 * (React sets style properties through the DOM, which style-src does not govern.)
 */
export const WEB_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Paths under /console that are the console's API, never a page. */
const API_PATHS = /^\/console\/(api|auth)(\/|$)/;

/**
 * Serves the console's single-page app: hashed assets (cached for a year) and, for every other
 * path under /console, its index page, whose router shows the screen (or "page not found").
 * Registered after the API controllers, so their routes answer first.
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleWebController {
  constructor(
    private readonly web: ConsoleWeb,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  @Get('assets/:file')
  @Header('Cache-Control', 'public, max-age=31536000, immutable')
  asset(@Param('file') file: string, @Res() response: unknown): void {
    const asset = this.web.asset(file);
    if (!asset) throw notFound('file');
    this.send(response, asset);
  }

  @Get(['', '*'])
  @Header('Cache-Control', 'no-store')
  @Header('Content-Security-Policy', WEB_POLICY)
  @Header('X-Frame-Options', 'DENY')
  @Header('Referrer-Policy', 'same-origin')
  page(@Req() request: unknown, @Res() response: unknown): void {
    const path = (rawRequest(request) as { originalUrl?: string }).originalUrl ?? rawRequest(request).url ?? '';
    if (API_PATHS.test(path)) throw notFound('route');
    const index = this.web.index();
    if (!index) throw problem('console_not_built', "The console's pages are not built: run npm run build");
    this.send(response, index);
  }

  private send(response: unknown, file: WebFile): void {
    const adapter: HttpServer = this.adapterHost.httpAdapter;
    adapter.setHeader(response, 'Content-Type', file.contentType);
    adapter.reply(response, file.body, 200);
  }
}
