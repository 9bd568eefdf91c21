import {
  applyDecorators,
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Optional,
  Post,
  Query,
  Redirect,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiPublic, RequestId, SesameMetrics } from '@sesame/common';
import { LOGIN_ATTEMPT_STATUSES } from '@sesame/entities';
import { ClientIp, EndpointLimit, EndpointThrottlerGuard } from '@sesame/throttler';
import { ErrorPages } from '../pages/error-pages.decorator';
import { PageInterceptor } from '../pages/page.interceptor';
import { seeOther } from '../pages/page-outcomes';
import { SameOriginFormGuard } from '../pages/same-origin-form.guard';
import { LoginLinkForm } from '../direct-auth/dto/login-link.dto';
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
  {
    name: 'code_challenge',
    required: true,
    description: 'PKCE S256 challenge, BASE64URL(SHA-256(code_verifier)). Required for every application type (RFC 9700 §2.1.1).',
  },
  { name: 'code_challenge_method', required: true, enum: ['S256'], description: 'Always S256.' },
  {
    name: 'nonce',
    required: false,
    description: 'OpenID Connect nonce (at most 512 printable characters): returned unchanged as the id_token’s `nonce` claim.',
  },
  {
    name: 'ui_locales',
    required: false,
    description: 'Space-separated language tags; the first of en, de, fr, es is used (else Accept-Language, else English).',
  },
  { name: 'login_hint', required: false, description: 'Pre-fills the e-mail address.' },
];

const OPTIONAL_HEADERS = applyDecorators(
  ApiHeader({
    name: 'cookie',
    required: false,
    description:
      'The form’s CSRF cookie (`sesame_csrf`), set by GET; after the form, also the `sesame_attempt` cookie of the browser that asked.',
  }),
  ApiHeader({
    name: 'user-agent',
    required: false,
    description: 'Shown on the approval page of another device (browser and system of the request).',
  }),
  ApiHeader({ name: 'accept-language', required: false, description: 'Used when ui_locales names no supported language.' }),
);

@ApiTags('Hosted login page')
@ApiPublic()
@ErrorPages()
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
  @applyDecorators(
    ...PARAMETERS.map(({ name, required, description, enum: values }) => ApiQuery({ name, required, description, enum: values })),
    OPTIONAL_HEADERS,
  )
  @ApiOkResponse({ description: 'The sign-in form.' })
  @ApiResponse({ status: 302, description: 'Error sent back to the application.' })
  @ApiResponse({ status: 400, description: 'Unknown client or redirect_uri: error page, no redirect.' })
  show(
    @Query() query: Record<string, unknown>,
    @RequestId() requestId: string | null,
    @Headers('cookie') cookie?: string,
    @Headers('accept-language') acceptLanguage?: string,
  ) {
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
        ...Object.fromEntries(
          PARAMETERS.filter(({ name }) => name !== 'login_hint').map(({ name, description, enum: values }) => [
            name,
            { type: 'string', description, ...(values ? { enum: values } : {}) },
          ]),
        ),
        csrf: { type: 'string', description: 'The CSRF value of the form; must match the `sesame_csrf` cookie.' },
        email: { type: 'string', format: 'email', description: 'Where the login link is sent.' },
      },
    },
  })
  @OPTIONAL_HEADERS
  @ApiHeader({
    name: 'user-agent',
    required: false,
    description: 'Shown (as browser and system) to a person approving the sign-in from another device.',
  })
  @ApiOperation({ summary: 'Submits the e-mail address: sends a login link and shows the "check your inbox" page' })
  @ApiOkResponse({ description: 'Check your inbox, with the sentence, the approval number and the code field.' })
  @ApiResponse({ status: 400, description: 'Invalid e-mail: the form again, with the error.' })
  @ApiResponse({ status: 403, description: 'Missing or wrong CSRF token.' })
  @ApiResponse({ status: 429, description: 'Before allowedDate for this address: the form again, with the time.' })
  async submit(
    @Body() form: Record<string, unknown> | undefined,
    @RequestId() requestId: string | null,
    @ClientIp() ip: string,
    @Headers('cookie') cookie?: string,
    @Headers('accept-language') acceptLanguage?: string,
    @Headers('user-agent') userAgent?: string,
  ) {
    // A body in another format (or none) is not parsed at all: it is an empty form, refused like one.
    const page = await this.loginPage.submit(form ?? {}, { cookieHeader: cookie, acceptLanguage, requestId, userAgent, ip });
    this.metrics?.loginsStarted.inc({ flow: 'hosted' });
    return page;
  }

  @Get('status')
  @ApiOperation({
    summary:
      'Where the "check your inbox" page goes on by itself: held while the attempt is pending, it goes on to the callback once the link is approved on another device',
    description:
      'Query: the request’s parameters and `login_attempt_id`; only the browser that asked (its `sesame_attempt` cookie) gets an answer. ' +
      'Waits up to 20 seconds for a change (on any instance), then shows the page again.',
  })
  @ApiProduces('text/html')
  @ApiQuery({ name: 'login_attempt_id', required: true })
  @OPTIONAL_HEADERS
  @ApiOkResponse({ description: 'Still pending: the page again.' })
  @ApiResponse({
    status: 303,
    description:
      'Approved: to redirect_uri with code and state (or an autologin walk). Used, expired or locked: to redirect_uri with error and state.',
  })
  @ApiResponse({ status: 400, description: 'Unknown client or redirect_uri, or other invalid parameters: an error page, no redirect.' })
  @ApiResponse({ status: 404, description: 'Unknown attempt, another application’s, or another browser’s.' })
  status(
    @Query() query: Record<string, unknown>,
    @RequestId() requestId: string | null,
    @Headers('cookie') cookie?: string,
    @Headers('accept-language') acceptLanguage?: string,
  ) {
    return this.loginPage.status(query, { cookieHeader: cookie, acceptLanguage, requestId });
  }

  @Get('watch')
  @ApiOperation({
    summary: 'What the "check your inbox" page’s script waits on: the attempt’s status, held while it is pending',
    description:
      'Query: as for `status`; only the browser that asked (its `sesame_attempt` cookie) gets an answer. Waits up to 20 seconds for a change ' +
      '(on any instance). Collects nothing: once the status is no longer `pending`, the page goes to `status`, which signs in or shows the outcome.',
  })
  @ApiQuery({ name: 'login_attempt_id', required: true })
  @OPTIONAL_HEADERS
  @ApiOkResponse({
    description: 'The attempt’s status.',
    schema: {
      type: 'object',
      required: ['status'],
      properties: { status: { type: 'string', enum: [...LOGIN_ATTEMPT_STATUSES] } },
    },
  })
  @ApiResponse({ status: 400, description: 'Unknown client or redirect_uri, or other invalid parameters: an error page.' })
  @ApiResponse({ status: 404, description: 'Unknown attempt, another application’s, or another browser’s.' })
  watch(@Query() query: Record<string, unknown>, @Headers('cookie') cookie?: string, @Headers('accept-language') acceptLanguage?: string) {
    return this.loginPage.watch(query, { cookieHeader: cookie, acceptLanguage, requestId: null });
  }

  @Post('code')
  @Redirect()
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    description:
      'The code form of the "check your inbox" page: the request’s hidden fields, the CSRF value, the attempt and the typed code. Only from the browser that asked (its `sesame_attempt` cookie).',
    schema: {
      type: 'object',
      required: [
        'response_type',
        'client_id',
        'redirect_uri',
        'state',
        'code_challenge',
        'code_challenge_method',
        'csrf',
        'login_attempt_id',
        'code',
      ],
      properties: {
        ...Object.fromEntries(
          PARAMETERS.filter(({ name }) => name !== 'login_hint').map(({ name, description, enum: values }) => [
            name,
            { type: 'string', description, ...(values ? { enum: values } : {}) },
          ]),
        ),
        csrf: { type: 'string', description: 'The CSRF value of the form; must match the `sesame_csrf` cookie.' },
        login_attempt_id: { type: 'string', format: 'uuid', description: 'The attempt the page was shown for.' },
        code: { type: 'string', description: 'The 6-digit code of the e-mail (spaces and dashes are ignored).' },
      },
    },
  })
  @OPTIONAL_HEADERS
  @ApiOperation({
    summary: 'Signs in with the code of the e-mail, typed on the "check your inbox" page',
    description: 'The code and the e-mailed link are one credential: the first used wins. Five wrong codes lock the attempt and its link.',
  })
  @ApiResponse({
    status: 303,
    description:
      'A right code: to redirect_uri with code and state (or the first stop of an autologin walk). A locked, used or expired attempt or a blocked user: to redirect_uri with error and state.',
  })
  @ApiResponse({
    status: 400,
    description:
      'A wrong (counted) or malformed code: the page again, with the error. `invalid_redirect_uri`: the application no longer allows the redirect_uri (an error page, no redirect; nothing used).',
  })
  @ApiResponse({ status: 403, description: 'Missing or wrong CSRF token.' })
  @ApiResponse({
    status: 404,
    description: 'Unknown attempt, another application’s, or another browser’s (no `sesame_attempt` cookie of the browser that asked).',
  })
  async code(
    @Body() form: Record<string, unknown> | undefined,
    @RequestId() requestId: string | null,
    @Headers('cookie') cookie?: string,
    @Headers('accept-language') acceptLanguage?: string,
  ) {
    const outcome = await this.loginPage.submitCode(form ?? {}, { cookieHeader: cookie, acceptLanguage, requestId });
    return seeOther(outcome);
  }

  @Post('link')
  @Redirect()
  @UseGuards(SameOriginFormGuard)
  @ApiOperation({
    summary: '"Continue here" on the e-mailed link’s page, in a browser that can make a passkey',
    description:
      'The link page’s script sends its form here instead of to POST /v1/login_link when the browser has a platform authenticator. Uses the link exactly as that does; when this browser asked for the login (its `sesame_attempt` and `sesame_csrf` cookies), the offer to create a passkey may come first. Only the link page’s own form (Sec-Fetch-Site, else Origin).',
  })
  @ApiHeader({ name: 'cookie', required: false, description: 'The hosted page’s `sesame_attempt` and `sesame_csrf` cookies.' })
  @ApiHeader({
    name: 'accept-language',
    required: false,
    description: 'The offer screen’s language: the first of en, de, fr and es it names.',
  })
  @ApiResponse({
    status: 303,
    description: 'As POST /v1/login_link: to redirect_uri with code and state, or with an error, or the first stop of an autologin walk.',
  })
  @ApiOkResponse({ description: 'The passkey offer screen (HTML), which goes on to the same place.' })
  @ApiResponse({
    status: 400,
    description: '`invalid_redirect_uri`: the application no longer allows the redirect_uri (an error page; the link is not used).',
  })
  @ApiResponse({ status: 403, description: '`cross_site_request`: the post came from another site (an error page).' })
  @ApiResponse({ status: 404, description: 'Unknown link: an error page.' })
  async link(
    @Body() form: LoginLinkForm,
    @RequestId() requestId: string | null,
    @Headers('cookie') cookie?: string,
    @Headers('accept-language') acceptLanguage?: string,
  ) {
    const outcome = await this.loginPage.continueFromLink(form.token, { cookieHeader: cookie, acceptLanguage, requestId });
    return seeOther(outcome);
  }
}
