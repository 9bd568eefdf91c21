import { Body, Controller, Get, Post, Query, Redirect, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiProperty, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { EndpointLimit, EndpointThrottlerGuard } from '@sesame/throttler';
import { PageErrorFilter } from '../pages/page-error.filter';
import { PageInterceptor } from '../pages/page.interceptor';
import { loginLinkPage } from './login-link.pages';
import { LoginLinkService } from './login-link.service';

export class LoginLinkForm {
  @ApiProperty({ description: 'The token of the e-mailed link.' })
  @IsString()
  @MaxLength(100)
  token: string;
}

@ApiTags('Login link pages')
@UseFilters(PageErrorFilter)
@UseInterceptors(PageInterceptor)
@UseGuards(EndpointThrottlerGuard)
@EndpointLimit('ip')
@Controller({ path: 'login_link', version: '1' })
export class LoginLinkController {
  constructor(private readonly links: LoginLinkService) {}

  @Get()
  @ApiOperation({ summary: 'The page an e-mailed login link opens: organization, sentence and a Continue button. Never uses the token.' })
  @ApiQuery({ name: 'token', required: true })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'HTML page.' })
  @ApiResponse({ status: 404, description: 'Unknown link: an error page, no redirect.' })
  async show(@Query('token') token: string) {
    return loginLinkPage(token, await this.links.describe(token));
  }

  @Post()
  @Redirect()
  @ApiOperation({
    summary: 'Uses the link once and redirects (303) to redirect_uri with code and state, or with error=login_link_expired | login_link_used | access_denied.',
  })
  @ApiResponse({ status: 303, description: 'Redirect to the application.' })
  @ApiResponse({ status: 404, description: 'Unknown link: an error page, no redirect.' })
  async use(@Body() form: LoginLinkForm) {
    return { url: await this.links.use(form.token), statusCode: 303 };
  }
}

