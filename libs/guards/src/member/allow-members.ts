import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiSecurity } from '@nestjs/swagger';
import { forbidden, MemberRole, roleIncludes } from '@sesame/common';
import { RequestWithPrincipal } from '../api-key/principal';

const ALLOWED_ROLE = 'sesame:allowed-member-role';

/** The header that names the tenant a member token acts in. */
export const SESAME_TENANT_HEADER = 'Sesame-Tenant';

/** OpenAPI security requirement of member tokens: the bearer token together with the tenant header. */
export const MEMBER_SECURITY = { member: [], sesameTenant: [] };

/**
 * Members with at least this role may call the route (API keys are unaffected: their own rules
 * apply). Routes without it refuse every member. The one place a route states who among the
 * members may call it; MemberRoleGuard enforces it.
 */
export const AllowMembers = (role: MemberRole) => applyDecorators(SetMetadata(ALLOWED_ROLE, role), ApiSecurity(MEMBER_SECURITY));

/** Enforces @AllowMembers on member principals; register it as an APP_GUARD after authentication. */
@Injectable()
export class MemberRoleGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const principal = context.switchToHttp().getRequest<RequestWithPrincipal>().principal;
    if (principal?.kind !== 'member') return true;
    const required = this.reflector.getAllAndOverride<MemberRole | undefined>(ALLOWED_ROLE, [context.getHandler(), context.getClass()]);
    if (!required) throw forbidden('member_not_allowed', 'Members cannot call this endpoint; it needs an API key');
    if (!roleIncludes(principal.role, required)) throw forbidden('insufficient_role', `This needs the ${required} role; your role in this tenant is ${principal.role}`);
    return true;
  }
}
