import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiPublic, Plan, Role } from '@sesame/common';

/** Who is calling the management API, as established by ApiKeyGuard. */
export type Principal = PlatformPrincipal | TenantPrincipal | OrganizationPrincipal | MemberPrincipal;

/** The operator's key (PLATFORM_API_KEY): manages tenants, never a tenant's data. */
export interface PlatformPrincipal {
  kind: 'platform';
}

/** A tenant key: everything of its tenant, as far as its role allows. */
export interface TenantPrincipal {
  kind: 'tenant';
  tenantId: string;
  plan: Plan;
  apiKeyId: string;
  apiKeyName: string;
  role: Role;
}

/** An organization key: one organization of a tenant, as far as its role (admin or viewer) allows. */
export interface OrganizationPrincipal {
  kind: 'organization';
  tenantId: string;
  organizationId: string;
  plan: Plan;
  apiKeyId: string;
  apiKeyName: string;
  role: Role;
}

/**
 * A person signed in to the console, acting in one tenant they are a member of (the
 * `Sesame-Tenant` header): everything of that tenant, as far as their role allows.
 */
export interface MemberPrincipal {
  kind: 'member';
  tenantId: string;
  plan: Plan;
  memberId: string;
  email: string;
  role: Role;
  /** When the person signed in (their console token was issued): dangerous changes need a recent one. */
  signedInAt: Date;
}

/** The principal of an API key. */
export type ApiKeyPrincipal = TenantPrincipal | OrganizationPrincipal;

/** Every principal that belongs to a tenant. */
export type TenantScopedPrincipal = TenantPrincipal | OrganizationPrincipal | MemberPrincipal;

/** The principals that reach everything of their tenant. */
export type TenantWidePrincipal = TenantPrincipal | MemberPrincipal;

/** The person behind a console access token, whatever tenant they act in (set by ApiKeyGuard for member tokens). */
export interface SignedInPerson {
  userId: string;
  /** The user's verified address, normalised. */
  email: string;
  /** When their console token was issued. */
  signedInAt: Date;
}

/** The request as the guards see it, on any HTTP platform. */
export interface RequestWithPrincipal {
  headers: Record<string, string | string[] | undefined>;
  principal?: Principal;
  person?: SignedInPerson;
}

/** The principal of the current request (set by ApiKeyGuard). */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  if (!principal) throw new Error('No principal on the request: is ApiKeyGuard applied, and is this not a @PersonRoute()?');
  return principal;
});

/** The signed-in person of a console token (on @PersonRoute() routes, which API keys cannot call). */
export const CurrentPerson = createParamDecorator((_: unknown, context: ExecutionContext): SignedInPerson => {
  const person = context.switchToHttp().getRequest<RequestWithPrincipal>().person;
  if (!person) throw new Error('No person on the request: is this a @PersonRoute()?');
  return person;
});

export const IS_PUBLIC = 'sesame:public';

/** Marks a route that needs no API key (health checks); its OpenAPI operation says so (`security: []`). */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), ApiPublic());

export const IS_PERSON_ROUTE = 'sesame:person-route';

/** Marks a route that member tokens reach without a `Sesame-Tenant` header (the person's own memberships). */
export const PersonRoute = () => SetMetadata(IS_PERSON_ROUTE, true);
