import { Inject, Injectable, Logger } from '@nestjs/common';
import { problem, ProblemException, SESAME_CONFIG, SesameConfig } from '@sesame/common';

const TIMEOUT_MS = 10_000;

/** Response headers of the management API that the pages need to see. */
const PASSED_BACK = [
  'content-type',
  'retry-after',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'ratelimit-policy',
  'www-authenticate',
];

export interface UpstreamRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** The management API path after /v2/, with its query string, e.g. `organization/…/user?limit=20`. */
  path: string;
  token: string;
  tenantId: string | null;
  /** JSON body, for POST. */
  body: unknown;
  requestId: string | null;
  /** The browser's address, for the management API's per-address limit (believed only if it trusts the console: TRUST_PROXY). */
  clientIp: string;
}

export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One tenant the signed-in person belongs to, as GET /v2/me lists them. */
export interface Membership {
  memberId: string;
  tenantId: string;
  tenantName: string;
  plan: string;
  role: 'viewer' | 'admin' | 'owner';
}

/**
 * The management API as the console's server calls it, over HTTP at CONSOLE_SESAME_URL like any
 * client: `Authorization: Bearer <console access token>` and `Sesame-Tenant`.
 */
@Injectable()
export class ManagementApi {
  private readonly logger = new Logger(ManagementApi.name);
  private readonly base: string;

  constructor(@Inject(SESAME_CONFIG) config: SesameConfig) {
    this.base = `${config.console.sesameUrl}/v2/`;
  }

  /** The signed-in person and their memberships; null when the token is no longer accepted. */
  async me(token: string, requestId: string | null, clientIp: string): Promise<{ email: string; memberships: Membership[] } | null> {
    const answer = await this.send({ method: 'GET', path: 'me', token, tenantId: null, body: undefined, requestId, clientIp });
    if (answer.status === 401) return null;
    if (answer.status !== 200) {
      this.logger.warn(`GET /v2/me answered ${answer.status}`);
      throw sesameUnavailable();
    }
    return JSON.parse(answer.body) as { email: string; memberships: Membership[] };
  }

  /** Sends a page's request on; the answer (status, body, the headers that matter) comes back as it is. */
  async send(request: UpstreamRequest): Promise<UpstreamAnswer> {
    const url = this.urlOf(request.path);
    const headers: Record<string, string> = {
      authorization: `Bearer ${request.token}`,
      accept: 'application/json',
      'x-forwarded-for': request.clientIp,
    };
    if (request.tenantId) headers['sesame-tenant'] = request.tenantId;
    if (request.requestId) headers['x-request-id'] = request.requestId;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: 'manual',
      });
    } catch (error) {
      this.logger.warn(`The management API could not be reached: ${(error as Error).message}`);
      throw sesameUnavailable();
    }
    const passed = Object.fromEntries(
      PASSED_BACK.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!]] : [])),
    );
    return { status: response.status, headers: passed, body: await response.text() };
  }

  /** The management API URL of a path; a path that would leave /v2/ (dot segments, another origin) is refused. */
  private urlOf(path: string): URL {
    let url: URL | null;
    try {
      url = new URL(path, this.base);
    } catch {
      url = null;
    }
    if (!url || !url.href.startsWith(this.base) || /(^|\/)\.\.?(\/|$)/.test(path.split('?')[0])) {
      throw problem('invalid_path', 'Not a management API path');
    }
    return url;
  }
}

export function sesameUnavailable(): ProblemException {
  return problem('sesame_unavailable', 'Sesame could not be reached; retry shortly', { headers: { 'Retry-After': '5' } });
}
