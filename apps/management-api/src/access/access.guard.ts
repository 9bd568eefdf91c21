import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Clock, LookupBatcher, notFound, problem, roleIncludes, RouteMemo, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { Organization, OrganizationRepository } from '@sesame/entities';
import { IS_PERSON_ROUTE, IS_PUBLIC, TenantScopedPrincipal } from '@sesame/guards';
import { isUUID } from 'class-validator';
import { ACCESS, AccessRule, includesSecret, RequestWithAccess } from './access.decorator';

/**
 * Enforces each route's @Access rule on the authenticated caller: the kind of caller (platform,
 * tenant or organization key, member), its role, a recent sign-in for members where the rule asks
 * for one, and the organization or tenant the route names, which must be within the caller's reach
 * (else 404, exactly like something that does not exist). The organization is loaded once, here,
 * and handed to the handler (@CurrentOrganization()).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly reauthMs: number;
  /**
   * Organizations by `tenant/id`. Most management requests name one; under load, the lookups that
   * arrive while one is out go to Postgres together in the next statement (the pg client's and the
   * database's work per statement was the read's largest cost: docs/benchmarks.md).
   */
  private readonly organizationLookups = new LookupBatcher<string, Organization>((keys) => this.findOrganizations(keys), {
    maxInFlight: 1,
    maxBatch: 100,
  });
  /** Each route's @Access rule; `open` for @Public() and @PersonRoute() routes, which it does not concern. */
  private readonly routes = new RouteMemo((handler, controller) => ({
    open:
      this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, controller]) === true ||
      this.reflector.getAllAndOverride<boolean>(IS_PERSON_ROUTE, [handler, controller]) === true,
    rule: this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS, [handler, controller]),
  }));

  constructor(
    private readonly reflector: Reflector,
    private readonly organizations: OrganizationRepository,
    private readonly clock: Clock,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.reauthMs = config.members.reauthSeconds * 1000;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { open, rule } = this.routes.of(context);
    if (open) return true;
    const request = context.switchToHttp().getRequest<RequestWithAccess>();
    if (!rule) throw new Error(`The route ${context.getClass().name}.${context.getHandler().name} declares no @Access rule`);
    const principal = request.principal!;
    if (principal.kind === 'platform') return this.platform(rule, request);
    this.checkKind(rule, principal);
    this.checkRole(rule, principal, request);
    if (rule.tenant && uuidParam(request, rule.tenant) !== principal.tenantId) throw notFound('tenant');
    if (rule.organization) request.organization = await this.reachableOrganization(principal, uuidParam(request, rule.organization));
    return true;
  }

  private platform(rule: AccessRule, request: RequestWithAccess): boolean {
    if (!rule.platform) throw problem('tenant_key_required', 'The platform key manages tenants only; use a tenant or organization key');
    if (rule.tenant) uuidParam(request, rule.tenant);
    return true;
  }

  private checkKind(rule: AccessRule, principal: TenantScopedPrincipal): void {
    if (!rule.role) throw problem('platform_key_required', 'Only the platform API key can do this');
    if (principal.kind === 'organization' && !rule.organization && !rule.organizationKeys) {
      throw problem('tenant_key_required', 'Only a tenant API key or a member can do this, not an organization key');
    }
  }

  private checkRole(rule: AccessRule, principal: TenantScopedPrincipal, request: RequestWithAccess): void {
    const needed =
      rule.includeSecret && includesSecret(request.query) ? rule.includeSecret : { role: rule.role!, freshSignIn: rule.freshSignIn };
    if (!roleIncludes(principal.role, needed.role)) {
      const whose = principal.kind === 'member' ? 'your role in this tenant' : "this key's role";
      throw problem('insufficient_role', `This needs the ${needed.role} role; ${whose} is ${principal.role}`);
    }
    if (needed.freshSignIn && principal.kind === 'member' && this.clock.now().getTime() - principal.signedInAt.getTime() > this.reauthMs) {
      throw problem(
        'reauthentication_required',
        'This change needs a recent sign-in: confirm with the code of a new sign-in e-mail, then try again',
        {
          extensions: { maxAgeSeconds: this.reauthMs / 1000 },
        },
      );
    }
  }

  private async reachableOrganization(principal: TenantScopedPrincipal, id: string) {
    const reachable = principal.kind !== 'organization' || principal.organizationId === id;
    const organization = reachable ? await this.organizationLookups.load(`${principal.tenantId}/${id}`) : undefined;
    if (!organization) throw notFound('organization');
    // Requests that overlap share the row read for them, and a handler may change what it is handed (an update).
    return { ...organization, whitelistDomains: [...organization.whitelistDomains] };
  }

  private async findOrganizations(keys: string[]): Promise<Map<string, Organization>> {
    const found = await this.organizations.findMany(
      keys.map((key) => {
        const [tenantId, id] = key.split('/');
        return { tenantId, id };
      }),
    );
    return new Map(found.map((organization) => [`${organization.tenantId}/${organization.id}`, organization]));
  }
}

/** A path parameter's id, lower-cased; 400 `invalid_id` as the route's own UUID pipe would answer (guards run before pipes). */
function uuidParam(request: RequestWithAccess, name: string): string {
  const value = request.params?.[name];
  if (typeof value !== 'string' || !isUUID(value)) throw problem('invalid_id', `${name} must be a UUID`);
  return value.toLowerCase();
}
