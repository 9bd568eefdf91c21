import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { Plan } from '@sesame/common';

/** Who is calling the management API, as established by ApiKeyGuard. */
export type Principal = PlatformPrincipal | TenantPrincipal | OrganizationPrincipal;

/** The operator's key (PLATFORM_API_KEY): manages tenants, never a tenant's data. */
export interface PlatformPrincipal {
  kind: 'platform';
}

/** A tenant key: everything of its tenant. */
export interface TenantPrincipal {
  kind: 'tenant';
  tenantId: string;
  plan: Plan;
  apiKeyId: string;
}

/** An organization key: one organization of a tenant. */
export interface OrganizationPrincipal {
  kind: 'organization';
  tenantId: string;
  organizationId: string;
  plan: Plan;
  apiKeyId: string;
}

export type TenantScopedPrincipal = TenantPrincipal | OrganizationPrincipal;

/** The request as the guards see it, on any HTTP platform. */
export interface RequestWithPrincipal {
  headers: Record<string, string | string[] | undefined>;
  principal?: Principal;
}

/** The principal of the current request (set by ApiKeyGuard). */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  if (!principal) throw new Error('No principal on the request: is ApiKeyGuard applied?');
  return principal;
});

export const IS_PUBLIC = 'sesame:public';

/** Marks a route that needs no API key (health checks). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
