import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiParam, ApiSecurity } from '@nestjs/swagger';
import { Role } from '@sesame/common';
import { Organization } from '@sesame/entities';
import { RequestWithPrincipal } from '@sesame/guards';

/** What a caller of a route must be: the one statement of who may call it, enforced by AccessGuard. */
export interface AccessRule {
  /** The platform key may call the route (alone, when no `role` is given). */
  platform?: true;
  /** The least role a tenant key or a member needs (and an organization key, where organization keys may call). */
  role?: Role;
  /** The path parameter naming the organization the route acts on: it is loaded (404 out of the caller's reach) and organization keys of it may call. */
  organization?: string;
  /** The path parameter naming the tenant the route acts on (404 for callers of another tenant). */
  tenant?: string;
  /** Organization keys may call this tenant-level route. */
  organizationKeys?: true;
  /** Members need a sign-in within MEMBER_REAUTH_SECONDS (API keys are not affected): the changes that hand out or take away power. */
  freshSignIn?: true;
  /** What a request asking for a secret (`?include=secret`) needs instead. */
  includeSecret?: { role: Role; freshSignIn?: true };
}

export const ACCESS = 'sesame:access';

/** The OpenAPI extension that carries each operation's rule (docs/access.md is generated from it). */
export const ACCESS_EXTENSION = 'x-sesame-access';

/** OpenAPI security requirement of member tokens: the bearer token together with the tenant header. */
const MEMBER_SECURITY = { member: [], sesameTenant: [] };

/** Who may call the route (see AccessRule). Every route of the management API has one, or is @Public() or a @PersonRoute(). */
export const Access = (rule: AccessRule) =>
  applyDecorators(
    SetMetadata(ACCESS, rule),
    ApiExtension(ACCESS_EXTENSION, rule),
    ...(rule.role ? [ApiSecurity(MEMBER_SECURITY)] : []),
    // The guard reads the organization's id itself (the handler gets the organization): the document still names the parameter.
    ...(rule.organization ? [ApiParam({ name: rule.organization, format: 'uuid', description: 'The organization.' })] : []),
  );

/** Whether the request asks for a secret (`?include=secret`). */
export function includesSecret(query: Record<string, unknown> | undefined): boolean {
  return query?.include === 'secret';
}

/** The request as AccessGuard leaves it. */
export interface RequestWithAccess extends RequestWithPrincipal {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  /** The organization of the route's `organization` parameter, within the caller's reach. */
  organization?: Organization;
}

/** The organization the route acts on, loaded by AccessGuard (routes with `@Access({ organization })`). */
export const CurrentOrganization = createParamDecorator((_: unknown, context: ExecutionContext): Organization => {
  const organization = context.switchToHttp().getRequest<RequestWithAccess>().organization;
  if (!organization) throw new Error('No organization on the request: does the route declare @Access({ organization })?');
  return organization;
});

/** The tenant of the caller (routes whose rule admits no platform key). */
export const CurrentTenantId = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const principal = context.switchToHttp().getRequest<RequestWithAccess>().principal;
  if (!principal || principal.kind === 'platform')
    throw new Error('No tenant caller on the request: does the route admit the platform key?');
  return principal.tenantId;
});
