import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { problem, ProblemException, RouteMemo, sha256 } from '@sesame/common';
import { ClientPrincipal, RequestWithClient } from './client-principal';
import { ClientVerifier, RegisteredClient } from './client-verifier';

export type ClientAuthMethod = ClientPrincipal['method'];

const METHODS_KEY = 'sesame:client-auth-methods';

/** The client authentication methods a route accepts (default: HTTP Basic only). */
export const ClientAuthMethods = (...methods: ClientAuthMethod[]) => SetMetadata(METHODS_KEY, methods);

const CHALLENGE = 'Basic realm="sesame"';

/**
 * The principal passesFromCache found, kept on the request for the route's canActivate (Nest may give
 * the route and the limit's deferral guard instances of their own). A symbol: nothing a client
 * sends can set it.
 */
const VOUCHED = Symbol('sesame:client-vouched');

type VouchingRequest = RequestWithClient & { [VOUCHED]?: ClientPrincipal };

export function invalidClient(detail = 'Client authentication failed'): ProblemException {
  return problem('invalid_client', detail, { headers: { 'WWW-Authenticate': CHALLENGE } });
}

/**
 * Authenticates the calling application (RFC 6749 §2.3):
 * - `client_secret_basic`: `Authorization: Basic base64(client_id:client_secret)`, each part
 *   form-urlencoded before base64 (§2.3.1); our ids and secrets are base64url, so clients that
 *   skip the encoding work too;
 * - `client_secret_post`: client_id and client_secret in the form body (less secure);
 * - `none`: client_id alone, for native apps, which prove possession with PKCE instead.
 * Using two methods at once is `invalid_request`; anything else wrong, a secret presented for a
 * native app (which has none: an authentication method it does not support, RFC 6749 §5.2) included,
 * is 401 `invalid_client`.
 */
@Injectable()
export class ClientAuthGuard implements CanActivate {
  private readonly allowedMethods = new RouteMemo(
    (handler, controller) =>
      this.reflector.getAllAndOverride<ClientAuthMethod[]>(METHODS_KEY, [handler, controller]) ?? ['client_secret_basic'],
  );

  constructor(
    private readonly clients: ClientVerifier,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<VouchingRequest>();
    const passed = request[VOUCHED];
    if (passed) {
      request.client = passed;
      return true;
    }
    const presented = presentedCredentials(request);
    if (!this.allowedMethods.of(context).includes(presented.method))
      throw invalidClient(presented.method === 'none' && !presented.clientId ? 'Client authentication is required' : undefined);

    const client = presented.clientId ? await this.clients.find(presented.clientId) : null;
    if (client && client.type !== 'web' && presented.method !== 'none') {
      // Tell the developer what is wrong: native apps have no secret to authenticate with.
      throw invalidClient('Native applications have no client secret: send client_id alone and use PKCE');
    }
    if (!client || !this.accepts(client, presented)) throw invalidClient();
    request.client = principalOf(client, presented);
    return true;
  }

  /**
   * Whether canActivate lets this request through from the client cache alone: credentials of an
   * allowed method that the cached client accepts. Nothing is refused and Postgres is not asked then.
   * A request it passes is not checked again: canActivate takes the principal found here (the
   * secret's HMAC is the costly part of both).
   */
  passesFromCache(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<VouchingRequest>();
    let presented: PresentedCredentials;
    try {
      presented = presentedCredentials(request);
    } catch {
      return false;
    }
    if (!presented.clientId || !this.allowedMethods.of(context).includes(presented.method)) return false;
    const client = this.clients.cached(presented.clientId);
    if (!client || !this.accepts(client, presented)) return false;
    request[VOUCHED] = principalOf(client, presented);
    return true;
  }

  private accepts(client: RegisteredClient, presented: PresentedCredentials): boolean {
    if (presented.method === 'none') return client.type !== 'web';
    return this.clients.secretMatches(client, presented.clientSecret ?? '');
  }
}

interface PresentedCredentials {
  method: ClientAuthMethod;
  clientId: string | null;
  clientSecret: string | null;
}

function principalOf(client: RegisteredClient, presented: PresentedCredentials): ClientPrincipal {
  const { applicationId, clientId, type, organizationId, tenantId, plan } = client;
  const idTokenKey = client.idTokenEncrypted && presented.clientSecret !== null ? sha256(presented.clientSecret) : null;
  return { applicationId, clientId, type, organizationId, tenantId, plan, idTokenKey, method: presented.method };
}

function presentedCredentials(request: RequestWithClient): PresentedCredentials {
  const basic = parseBasic(request.headers.authorization);
  const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
  const bodyId = optionalString(body.client_id);
  const bodySecret = optionalString(body.client_secret);
  if (basic) {
    if (bodySecret !== null || (bodyId !== null && bodyId !== basic.clientId)) {
      throw problem('invalid_request', 'Use one client authentication method, not several');
    }
    return { method: 'client_secret_basic', ...basic };
  }
  if (bodySecret !== null) return { method: 'client_secret_post', clientId: bodyId, clientSecret: bodySecret };
  return { method: 'none', clientId: bodyId, clientSecret: null };
}

function optionalString(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string') throw problem('invalid_request', 'client_id and client_secret must be strings');
  return value;
}

/** The credentials of a Basic header; null when there is no Basic header. */
export function parseBasic(header: string | string[] | undefined): { clientId: string; clientSecret: string } | null {
  if (typeof header !== 'string') return null;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]*)\s*$/i.exec(header);
  if (!match) {
    if (/^Basic\b/i.test(header)) throw invalidClient('Malformed Basic credentials');
    return null;
  }
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidClient('Malformed Basic credentials');
  try {
    return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw invalidClient('Malformed Basic credentials');
  }
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}
