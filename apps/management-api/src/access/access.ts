import { forbidden } from '@sesame/common';
import { PlatformPrincipal, Principal, SignedInPerson, TenantScopedPrincipal, TenantWidePrincipal } from '@sesame/guards';

/**
 * Which kind of caller may call which endpoint. A caller of the wrong kind gets 403; a caller of
 * the right kind asking for something outside its tenant or organization gets 404 (see the
 * repositories, which always filter by owner). Members act like a tenant key of the tenant named
 * by their Sesame-Tenant header, as far as their role allows (@AllowMembers on each route).
 */
export function requirePlatformKey(principal: Principal): PlatformPrincipal {
  if (principal.kind !== 'platform') throw forbidden('platform_key_required', 'Only the platform API key can do this');
  return principal;
}

/** A tenant key, or a member: everything of one tenant. */
export function requireTenantKey(principal: Principal): TenantWidePrincipal {
  if (principal.kind !== 'tenant' && principal.kind !== 'member') throw forbidden('tenant_key_required', 'Only a tenant API key can do this');
  return principal;
}

export function requireTenantScope(principal: Principal): TenantScopedPrincipal {
  if (principal.kind === 'platform') throw forbidden('tenant_key_required', 'The platform key manages tenants only; use a tenant or organization key');
  return principal;
}

/** A person signed in to the console (a member token), on routes without a tenant. */
export function requirePerson(person: SignedInPerson | null): SignedInPerson {
  if (!person) throw forbidden('member_token_required', 'Only a console access token can do this');
  return person;
}

/** Client secrets are shown to every caller but members with the viewer role. */
export function canSeeSecrets(principal: Principal): boolean {
  return principal.kind !== 'member' || principal.role !== 'viewer';
}
