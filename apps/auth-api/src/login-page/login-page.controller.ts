import { applyDecorators, Body, Controller, Get, Headers, HttpCode, Optional, Post, Query, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequestId, SesameMetrics } from '@sesame/common';
import { EndpointLimit, EndpointThrottlerGuard } from '@sesame/throttler';
import { PageErrorFilter } from '../pages/page-error.filter';
import { PageInterceptor } from '../pages/page.interceptor';
import { LoginPageService } from './login-page.service';

/** The request's parameters: the query of GET, and the hidden fields of the form that POST receives. */
const PARAMETERS: { name: string; required: boolean; description: string; enum?: string[] }[] = [
  { name: 'response_type', required: true, enum: ['code'], description: 'Always `code`.' },
  { name: 'client_id', required: true, description: 'The application’s client ID.' },
  {
    name: 'redirect_uri',
    required: true,
    description:
      'Web apps: an origin on the organization’s whitelist (and one of the registered callback URLs, if any). Android/iOS: exactly a registered callback URL (custom scheme or https). Desktop: a registered loopback callback, on any port.',
  },
  { name: 'state', required: true, description: 'Returned unchanged to redirect_uri (at most 1024 characters).' },
  { name: 'code_challenge', required: true, description: 'PKCE S256 challenge, BASE64URL(SHA-256(code_verifier)). Required for every application type (RFC 9700 §2.1.1).' },
  { name: 'code_challenge_method', required: true, enum: ['S256'], description: 'Always S256.' },
  { name: 'nonce', required: false, description: 'OpenID Connect nonce (at most 512 printable characters): returned unchanged as the id_token’s `nonce` claim.' },
  { name: 'ui_locales', required: false, description: 'Space-separated language tags; the first of en, de, fr, es is used (else Accept-Language, else English).' },
  { name: 'login_hint', required: false, description: 'Pre-fills the e-mail address.' },
];

const OPTIONAL_HEADERS = applyDecorators(
  ApiHeader({ name: 'cookie', required: false, description: 'The form’s CSRF cookie (`sesame_csrf`), set by GET.' }),
  ApiHeader({ name: 'accept-language', required: false, description: 'Used when ui_locales names no supported language.' }),
);

@ApiTags('Hosted login page')
@UseFilters(PageErrorFilter)
@UseInterceptors(PageInterceptor)
@UseGuards(EndpointThrottlerGuard)
@EndpointLimit('ip')
@Controller({ path: 'authorize', version: '1' })
export class LoginPageController {
  constructor(
    private readonly loginPage: LoginPageService,
    @Optional() private readonly metrics?: SesameMetrics,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Hosted login page for every application type',
    description:
      'Query: response_type=code, client_id, redirect_uri, state, code_challenge and code_challenge_method=S256 (required for every application), nonce, ui_locales, login_hint. ' +
      'An unknown client or unacceptable redirect_uri shows an error page; other errors redirect to redirect_uri with error, error_description and state.',
  })
  @ApiProduces('text/html')
  @applyDecorators(...PARAMETERS.map(({ name, required, description, enum: values }) => ApiQuery({ name, required, description, enum: values })), OPTIONAL_HEADERS)
  @ApiOkResponse({ description: 'The sign-in form.' })
  @ApiResponse({ status: 302, description: 'Error sent back to the application.' })
  @ApiResponse({ status: 400, description: 'Unknown client or redirect_uri: error page, no redirect.' })
  show(@Query() query: Record<string, unknown>, @RequestId() requestId: string | null, @Headers('cookie') cookie?: string, @Headers('accept-language') acceptLanguage?: string) {
    return this.loginPage.show(query, { cookieHeader: cookie, acceptLanguage, requestId });
  }

  @Post()
  @HttpCode(200)
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiProduces('text/html')
  @ApiBody({
    description: 'The form of GET /v1/authorize: its hidden fields (the request’s parameters and the CSRF value) and the e-mail address.',
    schema: {
      type: 'object',
      required: ['response_type', 'client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'csrf', 'email'],
      properties: {
        ...Object.fromEntries(PARAMETERS.filter(({ name }) => name !== 'login_hint').map(({ name, description, enum: values }) => [name, { type: 'string', description, ...(values ? { enum: values } : {}) }])),
        csrf: { type: 'string', description: 'The CSRF value of the form; must match the `sesame_csrf` cookie.' },
        email: { type: 'string', format: 'email', description: 'Where the login link is sent.' },
      },
    },
  })
  @OPTIONAL_HEADERS
  @ApiOperation({ summary: 'Submits the e-mail address: sends a login link and shows the "check your inbox" page' })
  @ApiOkResponse({ description: 'Check your inbox, with the sentence.' })
  @ApiResponse({ status: 400, description: 'Invalid e-mail: the form again, with the error.' })
  @ApiResponse({ status: 403, description: 'Missing or wrong CSRF token.' })
  @ApiResponse({ status: 429, description: 'Before allowedDate for this address: the form again, with the time.' })
  async submit(@Body() form: Record<string, unknown>, @RequestId() requestId: string | null, @Headers('cookie') cookie?: string, @Headers('accept-language') acceptLanguage?: string) {
    // A body in another format (or none) is not parsed at all: it is an empty form, refused like one.
    const page = await this.loginPage.submit(form ?? {}, { cookieHeader: cookie, acceptLanguage, requestId });
    this.metrics?.loginsStarted.inc({ flow: 'hosted' });
    return page;
  }
}
