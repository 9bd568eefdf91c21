import { Controller, Get, Query, Redirect, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { EndpointLimit, EndpointThrottlerGuard } from '@sesame/throttler';
import { PageErrorFilter } from '../pages/page-error.filter';
import { PageInterceptor } from '../pages/page.interceptor';
import { AutologinService } from './autologin.service';

@ApiTags('Login link pages')
@UseFilters(PageErrorFilter)
@UseInterceptors(PageInterceptor)
@UseGuards(EndpointThrottlerGuard)
@EndpointLimit('ip')
@Controller({ path: 'autologin', version: '1' })
export class AutologinController {
  constructor(private readonly autologin: AutologinService) {}

  @Get()
  @Redirect()
  @ApiOperation({
    summary: 'Continues an autologin walk: on to the next whitelist domain’s callback, or back to the original redirect_uri (see docs/autologin.md)',
  })
  @ApiQuery({ name: 'token', required: true, description: 'The one-time token of the `autologin_continue` URL.' })
  @ApiResponse({ status: 303, description: 'To the next callback, with code, state and autologin_continue; or to the original redirect_uri with code and state.' })
  @ApiResponse({ status: 404, description: 'Unknown, used or expired continuation: an error page.' })
  async continue(@Query('token') token: string) {
    return { url: await this.autologin.continue(token), statusCode: 303 };
  }
}
