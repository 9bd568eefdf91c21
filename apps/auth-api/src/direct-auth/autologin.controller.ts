import { Controller, Get, Headers, Query, Redirect, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiPublic, readCookie } from '@sesame/common';
import { EndpointLimit, EndpointThrottlerGuard } from '@sesame/throttler';
import { ErrorPages } from '../pages/error-pages.decorator';
import { PageInterceptor } from '../pages/page.interceptor';
import { AutologinService, WALK_COOKIE } from './autologin.service';

@ApiTags('Login link pages')
@ApiPublic()
@ErrorPages()
@UseInterceptors(PageInterceptor)
@UseGuards(EndpointThrottlerGuard)
@EndpointLimit('ip')
@Controller({ path: 'autologin', version: '1' })
export class AutologinController {
  constructor(private readonly autologin: AutologinService) {}

  @Get()
  @Redirect()
  @ApiOperation({
    summary:
      'Continues an autologin walk: on to the next whitelist domain’s callback, or back to the original redirect_uri (see docs/autologin.md)',
  })
  @ApiQuery({ name: 'token', required: true, description: 'The one-time token of the `autologin_continue` URL.' })
  @ApiHeader({
    name: 'cookie',
    required: false,
    description:
      '`sesame_walk`, set in the browser that pressed Continue on the login link: without it (another browser) the continuation is refused with 404.',
  })
  @ApiResponse({
    status: 303,
    description: 'To the next callback, with code, state and autologin_continue; or to the original redirect_uri with code and state.',
  })
  @ApiResponse({ status: 400, description: '`invalid_redirect_uri`: the original redirect_uri is no longer allowed (an error page).' })
  @ApiResponse({
    status: 404,
    description: 'Unknown, used or expired continuation, or another browser than the one that pressed Continue: an error page.',
  })
  async continue(@Query('token') token: string, @Headers('cookie') cookie?: string) {
    return { url: await this.autologin.continue(token, readCookie(cookie, WALK_COOKIE)), statusCode: 303 };
  }
}
