import { Body, Controller, Get, Headers, HttpCode, Post, Query, Redirect, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { EndpointLimit, EndpointThrottlerGuard } from '@sesame/throttler';
import { chooseLocale } from '../pages/locales';
import { ErrorPages } from '../pages/error-pages.decorator';
import { PageInterceptor } from '../pages/page.interceptor';
import { seeOther } from '../pages/page-outcomes';
import { SameOriginFormGuard } from '../pages/same-origin-form.guard';
import { ApiPublic, LOGIN_LINK_ROUTE, readCookie } from '@sesame/common';
import { ATTEMPT_COOKIE, LoginApprovalService } from './login-approval.service';
import { approvalOutcomePage, approvalPage, loginLinkPage } from './login-link.pages';
import { LoginLinkService } from './login-link.service';
import { ApprovalForm, LoginLinkForm } from './dto/login-link.dto';

/** The link page's own forms may post (their pages allow same-origin referrers, so browsers without Fetch Metadata send Sesame's Origin). */
const SAME_ORIGIN_REFERRER = { 'Referrer-Policy': 'same-origin' };

/** The pages speak the first of en, de, fr, es the browser asks for. */
const PAGE_LANGUAGE = ApiHeader({
  name: 'accept-language',
  required: false,
  description: 'The page’s language: the first of en, de, fr and es it names (else English).',
});

@ApiTags('Login link pages')
@ApiPublic()
@ErrorPages()
@UseInterceptors(PageInterceptor)
@UseGuards(EndpointThrottlerGuard)
@EndpointLimit('ip')
@Controller({ path: LOGIN_LINK_ROUTE, version: '1' })
export class LoginLinkController {
  constructor(
    private readonly links: LoginLinkService,
    private readonly approvals: LoginApprovalService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The page an e-mailed login link opens: organization, sentence and a Continue button. Never uses the token.' })
  @ApiQuery({ name: 'token', required: true })
  @ApiHeader({
    name: 'cookie',
    required: false,
    description: 'The hosted page’s `sesame_attempt` cookie: when this browser asked, “Continue here” comes first.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'HTML page.' })
  @ApiResponse({ status: 404, description: 'Unknown link: an error page, no redirect.' })
  @PAGE_LANGUAGE
  async show(@Query('token') token: string, @Headers('cookie') cookie?: string, @Headers('accept-language') acceptLanguage?: string) {
    const page = loginLinkPage(
      token,
      await this.links.describe(token, readCookie(cookie, ATTEMPT_COOKIE)),
      chooseLocale(undefined, acceptLanguage),
    );
    // The Continue form's post then carries this origin (not "null", as under no-referrer), for browsers without Fetch Metadata.
    return { ...page, headers: { ...page.headers, ...SAME_ORIGIN_REFERRER } };
  }

  @Get('approve')
  @ApiOperation({
    summary:
      '"Sign in on the device where you asked": what asked and from where (browser and system, network, time), and a field for the approval number the requesting screen shows. Changes nothing.',
  })
  @ApiQuery({ name: 'token', required: true })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'HTML page.' })
  @ApiResponse({ status: 404, description: 'Unknown link: an error page.' })
  @PAGE_LANGUAGE
  async showApproval(@Query('token') token: string, @Headers('accept-language') acceptLanguage?: string) {
    const page = approvalPage(token, await this.approvals.describe(token), chooseLocale(undefined, acceptLanguage));
    return { ...page, headers: { ...page.headers, ...SAME_ORIGIN_REFERRER } };
  }

  @Post('approve')
  @HttpCode(200)
  @UseGuards(SameOriginFormGuard)
  @ApiOperation({
    summary:
      'The typed approval number: the right one approves the attempt (status `approved`; the requesting side collects the login), a wrong one ends approval for the attempt (its link and code still work). Never redirects.',
    description:
      'Only the approval page’s own form (Sec-Fetch-Site, else Origin). Without a two-digit number (a bot submitting the page) nothing changes.',
  })
  @ApiOkResponse({
    description: 'The outcome page: approved, wrong number (approval ended), approval already ended, or already used, expired or locked.',
  })
  @ApiResponse({ status: 400, description: '`approval_number_required`: no two-digit number typed; nothing changed (an error page).' })
  @ApiResponse({ status: 403, description: '`cross_site_request`: the post came from another site (an error page).' })
  @ApiResponse({ status: 404, description: 'Unknown link: an error page.' })
  @PAGE_LANGUAGE
  async approve(@Body() form: ApprovalForm, @Headers('accept-language') acceptLanguage?: string) {
    const { outcome, organizationName } = await this.approvals.approve(form.token, form.number);
    return approvalOutcomePage(outcome, organizationName, chooseLocale(undefined, acceptLanguage));
  }

  @Post()
  @Redirect()
  @UseGuards(SameOriginFormGuard)
  @ApiOperation({
    summary:
      'Uses the link once and redirects (303) to redirect_uri with code and state, or with error=login_link_expired | login_link_used | access_denied.',
    description: 'Only the link page’s own form: a post another site makes the browser send is refused (Sec-Fetch-Site, else Origin).',
  })
  @ApiHeader({ name: 'sec-fetch-site', required: false, description: 'Sent by browsers: must be `same-origin`.' })
  @ApiHeader({ name: 'origin', required: false, description: 'Without Sec-Fetch-Site: must be Sesame’s public origin when present.' })
  @ApiResponse({
    status: 303,
    description: 'Redirect to the application (with an autologin walk, to its first stop, setting the `sesame_walk` cookie).',
  })
  @ApiResponse({
    status: 400,
    description:
      '`invalid_redirect_uri`: the application no longer allows the redirect_uri the login started with (an error page; the link is not used).',
  })
  @ApiResponse({ status: 403, description: '`cross_site_request`: the post came from another site (an error page).' })
  @ApiResponse({ status: 404, description: 'Unknown link: an error page, no redirect.' })
  async use(@Body() form: LoginLinkForm) {
    const outcome = await this.links.use(form.token);
    return seeOther(outcome);
  }
}
