import { forbidden } from '@sesame/common';
import { PlatformPrincipal, Principal, TenantPrincipal, TenantScopedPrincipal } from '@sesame/guards';

/**
 * Which kind of key may call which endpoint. A key of the wrong kind gets 403; a key of the
 * right kind asking for something outside its tenant or organization gets 404 (see the
 * repositories, which always filter by owner).
 */
export function requirePlatformKey(principal: Principal): PlatformPrincipal {
  if (principal.kind !== 'platform') throw forbidden('platform_key_required', 'Only the platform API key can do this');
  return principal;
}

export function requireTenantKey(principal: Principal): TenantPrincipal {
  if (principal.kind !== 'tenant') throw forbidden('tenant_key_required', 'Only a tenant API key can do this');
  return principal;
}

export function requireTenantScope(principal: Principal): TenantScopedPrincipal {
  if (principal.kind === 'platform') throw forbidden('tenant_key_required', 'The platform key manages tenants only; use a tenant or organization key');
  return principal;
}
