import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import {
  ApiBadGatewayResponse,
  ApiCookieAuth,
  ApiForbiddenResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ApiPublic, problem, ProblemDetails, rawRequest, RequestId } from '@sesame/common';
import { clientIp } from '@sesame/throttler';
import { BufferedResponse } from '../http/buffered-response';
import { ConsoleSessionService } from '../session/console-session.service';
import { SesameEndpointsResponse, TryItDto, TryItResponse } from './try-it.dto';
import { TryItService } from './try-it.service';

@ApiTags('Integration')
@Controller('console/api')
export class TryItController {
  constructor(
    private readonly sessions: ConsoleSessionService,
    private readonly tryIts: TryItService,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  @Get('endpoints')
  @ApiPublic()
  @ApiOperation({
    summary:
      'Sesame’s public URLs an application integrates with: issuer, discovery, JWKS, authorize, direct authentication, verify, userinfo',
  })
  @ApiOkResponse({ type: SesameEndpointsResponse })
  endpoints(): SesameEndpointsResponse {
    return this.tryIts.endpoints();
  }

  @Post('try_it')
  @HttpCode(200)
  @ApiCookieAuth('session')
  @ApiOperation({
    summary: 'Start a real login for an application, for the signed-in member’s own address (admins and owners; needs X-CSRF-Token)',
    description:
      'Direct authentication (an e-mailed link) for web applications of Pro and Enterprise tenants; otherwise the URL of the hosted login page. Follow it in the login activity.',
  })
  @ApiHeader({ name: 'Sesame-Tenant', required: true, description: 'The tenant of the application.' })
  @ApiOkResponse({ type: TryItResponse })
  @ApiForbiddenResponse({
    type: ProblemDetails,
    description:
      'Not a member of the tenant, a viewer (`insufficient_role`), a sign-in too long ago to read the client secret (`reauthentication_required`), or the CSRF check failed.',
  })
  @ApiResponse({
    status: 409,
    type: ProblemDetails,
    description: 'The application has nowhere to send the browser back to (`no_callback_url`).',
  })
  @ApiBadGatewayResponse({ type: ProblemDetails, description: 'Sesame could not be reached (`sesame_unavailable`).' })
  async tryIt(
    @Req() request: unknown,
    @Res({ passthrough: true }) response: unknown,
    @Body() body: TryItDto,
    @RequestId() requestId: string | null,
  ): Promise<TryItResponse> {
    const buffered = new BufferedResponse();
    try {
      const token = this.sessions.token(request);
      const session = token ? await this.sessions.current(request, buffered, requestId) : null;
      if (!token || !session)
        throw problem('not_signed_in', 'Sign in to the console first', {
          headers: { 'WWW-Authenticate': 'Cookie realm="sesame-console"' },
        });
      const tenantId = rawRequest(request).headers['sesame-tenant'];
      if (typeof tenantId !== 'string') throw problem('tenant_header_required', 'Send the tenant’s id as Sesame-Tenant');
      const membership = session.memberships.find((candidate) => candidate.tenantId === tenantId);
      if (!membership) throw problem('not_a_member', 'You are not a member of this tenant');
      const tryer = {
        token,
        email: session.email,
        tenantId,
        plan: membership.plan,
        role: membership.role,
        requestId,
        clientIp: clientIp(request as never),
      };
      return await this.tryIts.tryIt(tryer, body.organizationId, body.applicationId);
    } finally {
      buffered.copyHeadersTo(this.adapterHost.httpAdapter, response);
    }
  }
}
