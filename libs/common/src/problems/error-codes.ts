/** Where a code is answered: the management API, the auth API's JSON endpoints, its hosted pages, the console's API. */
export type ErrorApi = 'v2' | 'v1' | 'page' | 'console';

/** A place that answers a code with another status than the code's own, and what it means there. */
export interface ErrorUse {
  status?: number;
  apis: readonly ErrorApi[];
  doc: string;
}

/**
 * One error code: its HTTP status, where it is answered and what it means (docs/errors.md's tables
 * are generated from these). `oauth` is the RFC 6749 error the auth API's JSON endpoints report it
 * as; `also` lists further places that answer it, with their own meaning and, where the interface
 * fixes one, their own status (decisions.md, "Typed domain errors").
 */
export interface ErrorDefinition {
  status: number;
  apis: readonly ErrorApi[];
  doc: string;
  oauth?: string;
  also?: readonly ErrorUse[];
}

const CODE_REFUSED_IN_CONSOLE: ErrorUse = {
  apis: ['console'],
  doc: "`POST /console/api/sign_in/code`: Sesame's refusal of the typed code, with its code",
};

/** A refusal by the HTTP layer itself (no route's own rule), keeping the status it was refused with. */
const framework = (status: number, what: string): ErrorDefinition => ({
  status,
  apis: ['v2', 'v1', 'console'],
  doc: `${what}: the HTTP layer refused the request before any route's own rule`,
});

/** Every error code Sesame answers, in the order of docs/errors.md. */
export const ERROR_CODES = {
  validation_failed: {
    status: 400,
    apis: ['v2'],
    oauth: 'invalid_request',
    doc: 'a field is missing, of the wrong type, too long, unknown, or not acceptable (bad whitelist domain or callback URL), or a string holds control characters (U+0000–U+001F but tab, line feed and carriage return, and U+007F); see `errors`',
    also: [{ apis: ['console'], doc: '`POST /console/api/sign_in` without an e-mail address' }],
  },
  malformed_body: {
    status: 400,
    apis: ['v2'],
    oauth: 'invalid_request',
    doc: 'the body is not a JSON object or array, or is nested more than 32 levels deep',
  },
  invalid_id: { status: 400, apis: ['v2'], oauth: 'invalid_request', doc: 'a path id is not a UUID' },
  invalid_cursor: { status: 400, apis: ['v2'], oauth: 'invalid_request', doc: '`cursor` is not one this API returned' },
  no_client_secret: { status: 400, apis: ['v2'], doc: '`rotate_secret` on a native application, which has no secret' },
  webhook_url_not_allowed: {
    status: 400,
    apis: ['v2'],
    doc: 'a webhook endpoint URL that is not https, holds credentials, or names a private, loopback or link-local address (plain http to loopback only where `WEBHOOK_ALLOW_HTTP_LOOPBACK=on`)',
  },
  tenant_header_required: {
    status: 400,
    apis: ['v2', 'console'],
    doc: "a console access token without a valid `Sesame-Tenant` header (the tenant's id)",
  },
  bad_request: { ...framework(400, 'a request the HTTP layer could not take'), oauth: 'invalid_request' },
  missing_api_key: { status: 401, apis: ['v2'], doc: 'no `Authorization: Bearer` header (`WWW-Authenticate: Bearer realm="sesame"`)' },
  invalid_api_key: {
    status: 401,
    apis: ['v2'],
    doc: 'malformed, unknown or revoked key (`WWW-Authenticate` with `error="invalid_token"`)',
  },
  invalid_member_token: {
    status: 401,
    apis: ['v2'],
    doc: 'a console access token that is expired, revoked, of a blocked user, or issued to another application (`WWW-Authenticate` with `error="invalid_token"`)',
  },
  unauthorized: framework(401, 'not authenticated'),
  platform_key_required: {
    status: 403,
    apis: ['v2'],
    doc: 'only the platform key may do this (create tenants), whatever key or member asks',
    also: [
      {
        status: 401,
        apis: ['v2'],
        doc: 'the queue dashboard without the platform key or its session (`WWW-Authenticate: Bearer realm="sesame"`): it asks for credentials, as 401 does',
      },
    ],
  },
  cross_site_request: {
    status: 403,
    apis: ['v2', 'page'],
    doc: "a change through the queue dashboard's session cookie, or a press of a login link's Continue, sent from another site (`Sec-Fetch-Site`, else `Origin`)",
    also: [{ apis: ['v1'], doc: 'a passkey request of the hosted page (`/v1/authorize/passkey/*`) sent from another site' }],
  },
  tenant_key_required: {
    status: 403,
    apis: ['v2'],
    doc: 'a tenant key or a member is needed (the platform key manages tenants only; organization keys cannot list or create organizations, manage tenant keys or members, or change the tenant)',
  },
  plan_change_forbidden: { status: 403, apis: ['v2'], doc: 'only the platform key changes a plan' },
  not_a_member: {
    status: 403,
    apis: ['v2', 'console'],
    doc: 'the signed-in person is not a member of the tenant named by `Sesame-Tenant` (or it does not exist)',
  },
  insufficient_role: {
    status: 403,
    apis: ['v2', 'console'],
    doc: "the key's or member's role is too weak for this (the detail names the role needed): viewers change nothing and read no secret, only owners manage members, no key is given a role above its creator's, nor revoked by a weaker caller; in the console, trying a login needs the admin or owner role",
  },
  reauthentication_required: {
    status: 403,
    apis: ['v2'],
    doc: "a member's sign-in is older than `MEMBER_REAUTH_SECONDS` (10 minutes) for a change that hands out or takes away power: reading (`include=secret`) or rotating a client secret, creating or revoking a key, inviting a member, changing a role, removing a member, deleting an organization. Sign in again (the console asks for the code of a fresh e-mail) and retry; `maxAgeSeconds` says how recent. API keys never get it",
  },
  member_token_required: { status: 403, apis: ['v2'], doc: '`GET /v2/me` with an API key: only a console access token can ask' },
  forbidden: framework(403, 'forbidden'),
  not_found: {
    status: 404,
    apis: ['v2', 'v1'],
    doc: "does not exist, or is outside the key's reach (another tenant's or organization's) — the two are indistinguishable; on v1, a login attempt another application started, or one the hosted page started (`GET /v1/login_attempt/{id}`, `POST /v1/login_code` answer only attempts of direct authentication, to the application that started them)",
    also: [
      {
        apis: ['page'],
        doc: "the hosted page's code form (`POST /v1/authorize/code`) or its status requests (`GET /v1/authorize/status`, `GET /v1/authorize/watch`) from another browser than the one that started the attempt (no `sesame_attempt` cookie of it): nothing counted",
      },
      { apis: ['console'], doc: 'a console file or API route that does not exist' },
    ],
  },
  method_not_allowed: framework(405, 'a method the route does not take'),
  not_acceptable: framework(406, 'no acceptable representation'),
  request_timeout: framework(408, 'the request took too long to arrive'),
  user_exists: { status: 409, apis: ['v2'], doc: 'the e-mail address is taken in the organization' },
  member_exists: { status: 409, apis: ['v2'], doc: 'the address is already a member of the tenant' },
  webhook_endpoint_limit: { status: 409, apis: ['v2'], doc: 'the tenant has 20 webhook endpoints, as many as it may' },
  webhook_endpoint_disabled: { status: 409, apis: ['v2'], doc: 'a test event for a disabled webhook endpoint (enable it first)' },
  webhook_delivery_pending: {
    status: 409,
    apis: ['v2'],
    doc: 'a redelivery of a webhook delivery that is still pending (it will be tried on its schedule)',
  },
  last_owner: { status: 409, apis: ['v2'], doc: "the tenant's last owner cannot be removed or demoted" },
  conflict: framework(409, 'a conflict'),
  payload_too_large: { status: 413, apis: ['v2'], oauth: 'invalid_request', doc: 'body over `HTTP_BODY_LIMIT_BYTES`' },
  unsupported_media_type: {
    status: 415,
    apis: ['v2'],
    oauth: 'invalid_request',
    doc: 'a body that is not JSON (text/plain, XML, multipart, a form, or no content type): refused, nothing changes',
  },
  unprocessable_entity: framework(422, 'an entity that cannot be processed'),
  rate_limited: {
    status: 429,
    apis: ['v2', 'v1'],
    doc: 'a rate limit is used up; `Retry-After` and `RateLimit-*` headers (on `/v1/userinfo`: too many unknown tokens from the address)',
    also: [{ apis: ['console'], doc: 'too many sign-ins from the address (`PAGE_RATE_LIMIT`), or the global per-IP limit' }],
  },
  rate_limiter_unavailable: { status: 503, apis: ['v2'], oauth: 'temporarily_unavailable', doc: 'Redis is unreachable; retry shortly' },
  mail_queue_unavailable: {
    status: 503,
    apis: ['v2'],
    doc: "a member's invitation cannot be queued; nothing was created (`Retry-After: 5`)",
  },
  usage_unavailable: { status: 503, apis: ['v2'], doc: 'the usage counters (Redis) cannot be read' },
  service_unavailable: {
    status: 503,
    apis: ['v2'],
    oauth: 'temporarily_unavailable',
    doc: 'a Postgres connection was lost during the request (terminated, restarted, cut); `Retry-After: 1`',
  },
  internal_error: { status: 500, apis: ['v2'], oauth: 'server_error', doc: 'unexpected; logged, details never shown' },
  invalid_request: {
    status: 400,
    apis: ['v1'],
    doc: 'bad or missing parameter, unacceptable redirect_uri (also one whose path starts with `//`), non-form body on a token endpoint, several client authentication methods at once',
    also: [{ apis: ['page'], doc: 'a hosted form posted without its login attempt' }],
  },
  invalid_grant: {
    status: 400,
    apis: ['v1'],
    doc: "code unknown, expired, used, issued to another client, or for another redirect_uri; wrong or missing PKCE verifier, or a verifier for a code issued without challenge; an autologin stop's code without `autologin=true`, or `autologin=true` for any other code; blocked user. Reusing a code (by the application it was issued to) also revokes the tokens issued from it",
  },
  unsupported_grant_type: { status: 400, apis: ['v1'], doc: '`grant_type` present and not `authorization_code`' },
  unauthorized_client: {
    status: 400,
    apis: ['v1'],
    doc: 'direct authentication by a native application, or by an application that no longer exists',
  },
  invalid_client: {
    status: 401,
    apis: ['v1'],
    doc: 'missing or wrong client credentials, or a client secret presented for a native application, which has none (RFC 6749 §5.2: an authentication method it does not support) (`WWW-Authenticate: Basic realm="sesame"`)',
    also: [
      {
        status: 400,
        apis: ['page'],
        doc: '`/authorize` with an unknown client_id: error page, no redirect (no client authenticated, so no challenge)',
      },
    ],
  },
  invalid_token: { status: 401, apis: ['v1'], doc: 'userinfo without a valid access token (RFC 6750 `WWW-Authenticate`)' },
  plan_not_supported: { status: 403, apis: ['v1'], doc: 'direct authentication needs the Pro or Enterprise plan' },
  invalid_login_code: {
    status: 400,
    apis: ['v1'],
    doc: '`POST /v1/login_code` with a wrong code; counted: the fifth wrong code locks the attempt',
    also: [CODE_REFUSED_IN_CONSOLE],
  },
  login_code_disabled: {
    status: 400,
    apis: ['v1'],
    doc: '`POST /v1/login_code` (and the hosted code form) for an address with `LOGIN_CODE_FAILURES_PER_ADDRESS` (10) wrong codes within 24 hours, across attempts: codes are refused until a link of the address is used; nothing counted, the attempt stays pending, its link works. Said alike of every address',
    also: [CODE_REFUSED_IN_CONSOLE],
  },
  login_attempt_locked: {
    status: 400,
    apis: ['v1'],
    doc: '`POST /v1/login_code` on an attempt locked by five wrong codes (its link is dead too)',
    also: [CODE_REFUSED_IN_CONSOLE],
  },
  login_link_used: {
    status: 400,
    apis: ['v1'],
    doc: '`POST /v1/login_code` on an attempt already used (by its link or its code) or expired',
    also: [CODE_REFUSED_IN_CONSOLE],
  },
  login_link_expired: {
    status: 400,
    apis: ['v1'],
    doc: '`POST /v1/login_code` on an attempt already used (by its link or its code) or expired',
    also: [CODE_REFUSED_IN_CONSOLE],
  },
  access_denied: {
    status: 403,
    apis: ['v1'],
    doc: '`POST /v1/login_code` for a blocked user',
    also: [{ ...CODE_REFUSED_IN_CONSOLE, status: 400 }],
  },
  too_early: {
    status: 429,
    apis: ['v1'],
    doc: 'direct authentication before the address\'s allowedDate; nothing was sent. The body is exactly `{"allowedDate": "…"}` (no `error`), with `Retry-After`',
    also: [{ apis: ['console'], doc: 'a sign-in link was sent to the address moments ago; `allowedDate` says when the next can be' }],
  },
  temporarily_unavailable: {
    status: 503,
    apis: ['v1'],
    doc: 'the mail queue, the rate limiter or Postgres is unreachable; no login attempt stays live. Once the attempt is stored and its e-mail queued, the answer is 200 even if later bookkeeping fails',
  },
  invalid_redirect_uri: {
    status: 400,
    apis: ['page'],
    doc: '`/authorize` with a redirect_uri the application may not use; a login link, a code typed on the hosted page or an autologin continuation whose stored redirect_uri the application no longer allows (a whitelist domain or callback URL removed since): error page, no redirect, the link and code stay unused',
  },
  approval_number_required: {
    status: 400,
    apis: ['page'],
    doc: '`POST /v1/login_link/approve` without a two-digit number: nothing changed',
  },
  csrf_failed: {
    status: 403,
    apis: ['page'],
    doc: 'the hosted form was posted without its CSRF cookie or with a wrong token',
    also: [
      { apis: ['v1'], doc: "a passkey request of the hosted page (`/v1/authorize/passkey/*`) without the form's CSRF cookie and value" },
    ],
  },
  passkeys_off: {
    status: 403,
    apis: ['v1'],
    doc: "`/v1/authorize/passkey/*` and `/v1/passkey_direct/*` for an organization whose `passkeys` setting is `off`, or (hosted page) where `PUBLIC_BASE_URL`'s host is an IP address (WebAuthn needs a domain name)",
  },
  passkey_challenge_invalid: {
    status: 400,
    apis: ['v1'],
    doc: 'a passkey answer to a challenge that was already used, has expired, or was issued for another sign-in request, browser, registration, application or page origin: ask for new options',
  },
  passkey_refused: {
    status: 400,
    apis: ['v1'],
    doc: "a passkey that cannot sign in here: unknown, another organization's, a blocked or deleted user's, or its answer does not verify (signature, origin, RP ID, user verification, a sign count going backwards). One answer for all, so it tells nobody which passkeys exist",
  },
  passkey_registration_not_allowed: {
    status: 403,
    apis: ['v1'],
    doc: 'registering a passkey without the offer an e-mailed login just completed in this browser gives (none, expired, already used, or for another browser); in direct authentication (`/v1/passkey_direct/register/*`), without an access token of a login of this application at most 10 minutes old, or a second time with one',
  },
  passkey_exists: { status: 409, apis: ['v1'], doc: 'registering a passkey whose credential id is already registered' },
  unknown_login_link: {
    status: 404,
    apis: ['page'],
    doc: 'a login link or autologin continuation that was never issued, an expired continuation, or a continuation opened in another browser than the one that pressed Continue',
  },
  sign_in_not_found: {
    status: 404,
    apis: ['console'],
    doc: '`POST /console/api/sign_in/code` or `GET /console/api/sign_in/status` for a sign-in this browser did not start (or started too long ago)',
  },
  sign_in_refused: {
    status: 400,
    apis: ['console'],
    doc: "Sesame refused the console's sign-in (the console is not set up for `CONSOLE_PUBLIC_URL`)",
  },
  invalid_path: { status: 400, apis: ['console'], doc: "a forwarded path that would leave the management API's `/v2/`" },
  not_signed_in: { status: 401, apis: ['console'], doc: 'a forwarded call without a session' },
  cross_origin_request: {
    status: 403,
    apis: ['console'],
    doc: 'a `POST` or `DELETE` from another origin (`Origin`, `Sec-Fetch-Site: cross-site`)',
  },
  csrf_token_invalid: {
    status: 403,
    apis: ['console'],
    doc: 'a `POST` or `DELETE` without the `X-CSRF-Token` of `GET /console/api/session`',
  },
  no_callback_url: {
    status: 409,
    apis: ['console'],
    doc: 'trying a login for an application with no callback URL (nor, for a web application, a whitelist domain of its organization)',
  },
  try_failed: {
    status: 400,
    apis: ['console'],
    doc: 'trying a login was refused by an answer without a code of its own (502 when Sesame failed)',
  },
  sesame_unavailable: { status: 502, apis: ['console'], doc: "Sesame's APIs could not be reached" },
  console_not_built: { status: 503, apis: ['console'], doc: "the console's pages are not built (`npm run build`)" },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERROR_CODES;

type AlsoStatus<D> = D extends { also: readonly (infer U)[] } ? (U extends { status: infer S } ? S : never) : never;

/** The statuses a code may be answered with: its own, and those of the places that override it. */
export type ErrorStatus<C extends ErrorCode> = (typeof ERROR_CODES)[C]['status'] | AlsoStatus<(typeof ERROR_CODES)[C]>;

const DEFINITIONS: Record<string, ErrorDefinition> = ERROR_CODES;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(DEFINITIONS, code);
}

/** The RFC 6749 error code a code is reported as on the auth API's JSON endpoints. */
export function oauthErrorCode(code: string): string {
  return (isErrorCode(code) ? DEFINITIONS[code].oauth : undefined) ?? code;
}

/** Every code a surface can answer, sorted: the `code` values its documents list. */
export function errorCodesOf(apis: readonly ErrorApi[]): string[] {
  const answered = (definition: ErrorDefinition) =>
    [definition, ...(definition.also ?? [])].some((use) => use.apis.some((api) => apis.includes(api)));
  return Object.entries(DEFINITIONS)
    .filter(([, definition]) => answered(definition))
    .map(([code]) => code)
    .sort();
}

/** The RFC 6749 `error` values of the auth API's JSON endpoints: v1 codes and what other codes are reported as. */
export function oauthErrorCodes(): string[] {
  const reported = Object.entries(DEFINITIONS)
    .filter(([, definition]) => definition.apis.includes('v1') || definition.oauth)
    .map(([code]) => oauthErrorCode(code));
  return [...new Set(reported)].filter((code) => code !== 'too_early').sort();
}
