import { Body, Controller, Get, Post, Query, Redirect, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiProperty, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { EndpointLimit, EndpointThrottlerGuard } from '@sesame/throttler';
import { ErrorPages } from '../pages/error-pages.decorator';
import { PageInterceptor } from '../pages/page.interceptor';
import { SameOriginFormGuard } from '../pages/same-origin-form.guard';
import { loginLinkPage } from './login-link.pages';
import { LoginLinkService } from './login-link.service';

export class LoginLinkForm {
  @ApiProperty({ description: 'The token of the e-mailed link.' })
  @IsString()
  @MaxLength(100)
  token: string;
}

@ApiTags('Login link pages')
@ErrorPages()
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
    const page = loginLinkPage(token, await this.links.describe(token));
    // The Continue form's post then carries this origin (not "null", as under no-referrer), for browsers without Fetch Metadata.
    return { ...page, headers: { ...page.headers, 'Referrer-Policy': 'same-origin' } };
  }

  @Post()
  @Redirect()
  @UseGuards(SameOriginFormGuard)
  @ApiOperation({
    summary: 'Uses the link once and redirects (303) to redirect_uri with code and state, or with error=login_link_expired | login_link_used | access_denied.',
    description: 'Only the link page’s own form: a post another site makes the browser send is refused (Sec-Fetch-Site, else Origin).',
  })
  @ApiHeader({ name: 'sec-fetch-site', required: false, description: 'Sent by browsers: must be `same-origin`.' })
  @ApiHeader({ name: 'origin', required: false, description: 'Without Sec-Fetch-Site: must be Sesame’s public origin when present.' })
  @ApiResponse({ status: 303, description: 'Redirect to the application (with an autologin walk, to its first stop, setting the `sesame_walk` cookie).' })
  @ApiResponse({ status: 400, description: '`invalid_redirect_uri`: the application no longer allows the redirect_uri the login started with (an error page; the link is not used).' })
  @ApiResponse({ status: 403, description: '`cross_site_request`: the post came from another site (an error page).' })
  @ApiResponse({ status: 404, description: 'Unknown link: an error page, no redirect.' })
  async use(@Body() form: LoginLinkForm) {
    const outcome = await this.links.use(form.token);
    return { url: outcome.url, statusCode: 303, headers: outcome.cookie ? { 'Set-Cookie': outcome.cookie } : {} };
  }
}
