import { Body, Controller, Get, Headers, HttpCode, Post, Query, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiConsumes, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { EndpointLimit, EndpointThrottlerGuard } from '@sesame/throttler';
import { PageErrorFilter } from '../pages/page-error.filter';
import { PageInterceptor } from '../pages/page.interceptor';
import { LoginPageService } from './login-page.service';

@ApiTags('Hosted login page')
@UseFilters(PageErrorFilter)
@UseInterceptors(PageInterceptor)
@UseGuards(EndpointThrottlerGuard)
@EndpointLimit('ip')
@Controller({ path: 'authorize', version: '1' })
export class LoginPageController {
  constructor(private readonly loginPage: LoginPageService) {}

  @Get()
  @ApiOperation({
    summary: 'Hosted login page for every application type',
    description:
      'Query: response_type=code, client_id, redirect_uri, state, code_challenge, code_challenge_method=S256 (required for native apps), ui_locales, login_hint. ' +
      'An unknown client or unacceptable redirect_uri shows an error page; other errors redirect to redirect_uri with error, error_description and state.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The sign-in form.' })
  @ApiResponse({ status: 302, description: 'Error sent back to the application.' })
  @ApiResponse({ status: 400, description: 'Unknown client or redirect_uri: error page, no redirect.' })
  show(@Query() query: Record<string, unknown>, @Headers('cookie') cookie?: string, @Headers('accept-language') acceptLanguage?: string) {
    return this.loginPage.show(query, { cookieHeader: cookie, acceptLanguage, requestId: null });
  }

  @Post()
  @HttpCode(200)
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiProduces('text/html')
  @ApiOperation({ summary: 'Submits the e-mail address: sends a login link and shows the "check your inbox" page' })
  @ApiOkResponse({ description: 'Check your inbox, with the sentence.' })
  @ApiResponse({ status: 400, description: 'Invalid e-mail: the form again, with the error.' })
  @ApiResponse({ status: 403, description: 'Missing or wrong CSRF token.' })
  @ApiResponse({ status: 429, description: 'Before allowedDate for this address: the form again, with the time.' })
  submit(@Body() form: Record<string, unknown>, @Headers('cookie') cookie?: string, @Headers('accept-language') acceptLanguage?: string) {
    return this.loginPage.submit(form, { cookieHeader: cookie, acceptLanguage, requestId: null });
  }
}
