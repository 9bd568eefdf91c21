import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { problem, RouteMemo } from '@sesame/common';
import { MemberVerifier } from '../member/member-verifier';
import { ApiKeyVerifier } from './api-key-verifier';
import { IS_PERSON_ROUTE, IS_PUBLIC, MemberPrincipal, RequestWithPrincipal, SignedInPerson } from './principal';

const REALM = 'Bearer realm="sesame"';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Authenticates `Authorization: Bearer <credential>` and puts the caller on the request: the
 * platform key or an API key (request.principal), or a console access token, whose person
 * (request.person) acts as a member of the tenant named by `Sesame-Tenant` (request.principal).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  /** Whether a route is @Public() (no credential) or a @PersonRoute() (console tokens only). */
  private readonly routes = new RouteMemo((handler, controller) => ({
    public: this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, controller]) === true,
    personRoute: this.reflector.getAllAndOverride<boolean>(IS_PERSON_ROUTE, [handler, controller]) === true,
  }));

  constructor(
    private readonly verifier: ApiKeyVerifier,
    private readonly members: MemberVerifier,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.routes.of(context);
    if (route.public) return true;
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    const credential = bearerToken(request.headers.authorization);
    if (credential === undefined)
      throw problem('missing_api_key', 'Send an API key as `Authorization: Bearer <key>`', { headers: { 'WWW-Authenticate': REALM } });
    const principal = credential ? await this.verifier.verify(credential) : null;
    if (principal) {
      // A person route answers about the person behind a console token: an API key has none.
      if (route.personRoute) throw problem('member_token_required', 'Only a console access token can do this');
      request.principal = principal;
      return true;
    }
    if (!credential || !this.members.looksLikeAccessToken(credential)) {
      throw problem('invalid_api_key', 'The API key is not valid', {
        headers: { 'WWW-Authenticate': `${REALM}, error="invalid_token", error_description="The API key is not valid"` },
      });
    }
    request.person = await this.person(credential);
    if (!route.personRoute) request.principal = await this.member(request.person, request.headers);
    return true;
  }

  /**
   * Whether canActivate lets this request through from the key cache alone: an API key the cache
   * holds as live, on a route for keys. Nothing is refused and Postgres is not asked then.
   */
  passesFromCache(context: ExecutionContext): boolean {
    const route = this.routes.of(context);
    if (route.public || route.personRoute) return false;
    const credential = bearerToken(context.switchToHttp().getRequest<RequestWithPrincipal>().headers.authorization);
    return !!credential && this.verifier.holdsLiveKey(credential);
  }

  private async person(token: string): Promise<SignedInPerson> {
    const person = await this.members.person(token);
    if (person) return person;
    const detail = 'The console access token is not valid: expired, revoked or issued to another application';
    throw problem('invalid_member_token', detail, {
      headers: { 'WWW-Authenticate': `${REALM}, error="invalid_token", error_description="${detail}"` },
    });
  }

  private async member(person: SignedInPerson, headers: RequestWithPrincipal['headers']): Promise<MemberPrincipal> {
    const tenantId = headers['sesame-tenant'];
    if (typeof tenantId !== 'string' || !UUID.test(tenantId)) {
      throw problem('tenant_header_required', 'A console access token needs the id of the tenant it acts in, as the Sesame-Tenant header');
    }
    const member = await this.members.member(person, tenantId.toLowerCase());
    if (!member) throw problem('not_a_member', 'You are not a member of this tenant');
    return member;
  }
}

/** The token of a Bearer authorization header; undefined when there is no Bearer header, '' when it is empty. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
  return match ? (match[1] ?? '').trim() : undefined;
}
