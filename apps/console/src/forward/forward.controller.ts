import { applyDecorators, Body, Controller, Delete, Get, HttpServer, Post, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiBody, ApiCookieAuth, ApiHeader, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { problem, ProblemDetails, rawRequest, requestIdOf } from '@sesame/common';
import { clientIp } from '@sesame/throttler';
import { BufferedResponse } from '../http/buffered-response';
import { ConsoleSessionService } from '../session/console-session.service';
import { ManagementApi, UpstreamRequest } from '../management/management-api';

const PREFIX = '/console/api/v2/';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The backend for the console's pages: `/console/api/v2/<path>` is the management API's
 * `/v2/<path>`, called with the signed-in member's access token and the page's `Sesame-Tenant`.
 * The browser never holds the token. Changes (POST, DELETE) pass the CSRF guard first.
 */
/** What every forwarded call may answer: the management API's answer, or the console's own refusal. */
const FORWARDED = (summary: string) =>
  applyDecorators(
    ApiOperation({
      summary,
      description: 'The management API’s `/api/v2/{path}` (its OpenAPI: /api/v2/openapi.json), called as the signed-in member.',
    }),
    ApiParam({
      name: 'path',
      description: 'The management API path after `/api/v2/`, e.g. `organization` or `organization/{id}/application`.',
      example: 'organization',
    }),
    ApiHeader({
      name: 'Sesame-Tenant',
      required: false,
      description: 'The id of the tenant the member acts in (from GET /console/api/session).',
    }),
    ApiResponse({ status: 200, description: 'The management API’s answer (200, 201 or 204, with its body).' }),
    ApiResponse({ status: 400, type: ProblemDetails, description: 'The management API refused the input.' }),
    ApiResponse({
      status: 401,
      type: ProblemDetails,
      description: 'Nobody is signed in (`not_signed_in`), or the session ended (the cookie is cleared).',
    }),
    ApiResponse({
      status: 403,
      type: ProblemDetails,
      description: 'The member’s role does not allow it, or (POST, DELETE) the CSRF check failed.',
    }),
    ApiResponse({ status: 404, type: ProblemDetails, description: 'No such resource or route at the management API.' }),
    ApiResponse({
      status: 409,
      type: ProblemDetails,
      description: 'A conflict at the management API (e.g. a user with that e-mail exists).',
    }),
    ApiResponse({ status: 502, type: ProblemDetails, description: 'Sesame could not be reached (`sesame_unavailable`).' }),
  );

@ApiTags('Management API, as the signed-in member')
@ApiCookieAuth('session')
@Controller('console/api/v2')
export class ForwardController {
  constructor(
    private readonly sessions: ConsoleSessionService,
    private readonly management: ManagementApi,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  @Get('*')
  @FORWARDED('GET /api/v2/{path} of the management API')
  get(@Req() request: unknown, @Res() response: unknown): Promise<void> {
    return this.forward('GET', request, response, undefined);
  }

  @Post('*')
  @FORWARDED('POST /api/v2/{path} of the management API (needs X-CSRF-Token)')
  @ApiBody({ required: false, description: 'The management API route’s JSON body.', schema: { type: 'object' } })
  post(@Req() request: unknown, @Res() response: unknown, @Body() body: unknown): Promise<void> {
    return this.forward('POST', request, response, body);
  }

  @Delete('*')
  @FORWARDED('DELETE /api/v2/{path} of the management API (needs X-CSRF-Token)')
  delete(@Req() request: unknown, @Res() response: unknown): Promise<void> {
    return this.forward('DELETE', request, response, undefined);
  }

  private async forward(method: UpstreamRequest['method'], request: unknown, response: unknown, body: unknown): Promise<void> {
    const token = this.sessions.token(request);
    if (!token)
      throw problem('not_signed_in', 'Sign in to the console first', { headers: { 'WWW-Authenticate': 'Cookie realm="sesame-console"' } });
    const raw = rawRequest(request);
    const tenant = raw.headers['sesame-tenant'];
    const answer = await this.management.send({
      method,
      path: ((raw as { originalUrl?: string }).originalUrl ?? raw.url ?? PREFIX).slice(PREFIX.length),
      token,
      tenantId: typeof tenant === 'string' && UUID.test(tenant) ? tenant : null,
      // Only a POST carries a body: fetch refuses one on GET, and a DELETE here never has one.
      body: method === 'POST' && hasJsonBody(raw.headers) ? (body ?? {}) : undefined,
      requestId: requestIdOf(request),
      clientIp: clientIp(request as never),
    });
    const adapter: HttpServer = this.adapterHost.httpAdapter;
    const buffered = new BufferedResponse();
    // The token is no longer accepted (expired or revoked): the session is over.
    if (answer.status === 401) this.sessions.forgetSession(buffered);
    buffered.copyHeadersTo(adapter, response);
    for (const [name, value] of Object.entries(answer.headers)) adapter.setHeader(response, name, value);
    adapter.setHeader(response, 'Cache-Control', 'no-store');
    adapter.reply(response, answer.body, answer.status);
  }
}

function hasJsonBody(headers: Record<string, string | string[] | undefined>): boolean {
  return typeof headers['content-type'] === 'string' && headers['content-type'].toLowerCase().startsWith('application/json');
}
