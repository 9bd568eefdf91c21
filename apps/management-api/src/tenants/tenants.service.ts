import { Inject, Injectable } from '@nestjs/common';
import { CacheInvalidationBus, notFound, Page, PageQuery, problem, SESAME_CONFIG, SesameConfig, toPage, validEmail } from '@sesame/common';
import { Tenant, TenantRepository, Transactions } from '@sesame/entities';
import { Principal } from '@sesame/guards';
import { ApiKeysService, FIRST_KEY_CREATOR } from '../api-keys/api-keys.service';
import { MemberResponse } from '../members/dto/member.dto';
import { MembersService } from '../members/members.service';
import { CreatedTenantResponse, CreateTenantDto, TenantResponse, UpdateTenantDto } from './dto/tenant.dto';

@Injectable()
export class TenantsService {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly transactions: Transactions,
    private readonly apiKeys: ApiKeysService,
    private readonly members: MembersService,
    private readonly invalidations: CacheInvalidationBus,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  /**
   * Creates a tenant, its first tenant key (an owner key) and, with ownerEmail, its first owner; the
   * path shared by the platform key's route, the CLI and the local launcher: tenant, key and owner
   * in one transaction, then the owner's invitation; if it cannot be queued the tenant is withdrawn (503).
   */
  async createTenant(input: CreateTenantDto, requestId: string | null = null): Promise<CreatedTenantResponse> {
    const ownerEmail = input.ownerEmail === undefined ? null : validEmail(input.ownerEmail, 'ownerEmail');
    const created = await this.transactions.run(async (manager) => {
      const tenant = await this.tenants.insert(manager, { name: input.name, plan: input.plan });
      const apiKey = await this.apiKeys.create(
        { tenantId: tenant.id, organizationId: null },
        FIRST_KEY_CREATOR,
        { name: 'Initial key', role: 'owner' },
        manager,
      );
      const owner = ownerEmail ? await this.members.addOwner(manager, tenant.id, ownerEmail) : null;
      return { tenant, apiKey, owner };
    });
    if (created.owner) await this.members.sendInvitation(created.owner, requestId, () => this.tenants.delete(created.tenant.id));
    return { tenant: this.toResponse(created.tenant), apiKey: created.apiKey, owner: created.owner && MemberResponse.from(created.owner) };
  }

  /** The platform key lists every tenant (but the console's own); any other caller sees only its own tenant. */
  async list(principal: Principal, page: PageQuery): Promise<Page<TenantResponse>> {
    if (principal.kind === 'platform') {
      return toPage(await this.tenants.list(page), page.limit, (tenant) => this.toResponse(tenant));
    }
    return { data: [await this.get(principal.tenantId)], nextCursor: null };
  }

  /** A tenant within the caller's reach (AccessGuard has checked it). */
  async get(id: string): Promise<TenantResponse> {
    return this.toResponse(await this.findOrFail(id));
  }

  /** The name by the tenant's keys and members (admin or owner); the plan only by the platform key. */
  async update(principal: Principal, id: string, input: UpdateTenantDto): Promise<TenantResponse> {
    const tenant = await this.findOrFail(id);
    if (input.plan !== undefined && input.plan !== tenant.plan && principal.kind !== 'platform') {
      throw problem('plan_change_forbidden', 'Only the platform key can change a plan');
    }
    const planChanged = input.plan !== undefined && input.plan !== tenant.plan;
    if (input.name !== undefined) tenant.name = input.name;
    if (input.plan !== undefined) tenant.plan = input.plan;
    const saved = await this.tenants.update(tenant);
    // The plan is cached with the tenant's clients, keys and members on every instance.
    if (planChanged) await this.invalidations.publish({ kind: 'tenant', tenantId: id });
    return this.toResponse(saved);
  }

  private async findOrFail(id: string): Promise<Tenant> {
    const tenant = await this.tenants.find(id);
    if (!tenant) throw notFound('tenant');
    return tenant;
  }

  private toResponse(tenant: Tenant): TenantResponse {
    return TenantResponse.from(tenant, this.config.limits.plans[tenant.plan]);
  }
}
