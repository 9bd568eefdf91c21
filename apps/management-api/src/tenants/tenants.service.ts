import { Inject, Injectable } from '@nestjs/common';
import { forbidden, notFound, Page, PageQuery, SESAME_CONFIG, SesameConfig, toPage, validEmail } from '@sesame/common';
import { Tenant } from '@sesame/entities';
import { Principal } from '@sesame/guards';
import { requirePlatformKey, requireTenantKey, requireTenantScope } from '../access/access';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { MemberResponse } from '../members/dto/member.dto';
import { MembersService } from '../members/members.service';
import { CreatedTenantResponse, CreateTenantDto, TenantResponse, UpdateTenantDto } from './dto/tenant.dto';
import { TenantRepository } from './tenant.repository';

@Injectable()
export class TenantsService {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly apiKeys: ApiKeysService,
    private readonly members: MembersService,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  /** Creates a tenant, its first tenant key and, with ownerEmail, its first owner (platform key). */
  async create(principal: Principal, input: CreateTenantDto, requestId: string | null): Promise<CreatedTenantResponse> {
    requirePlatformKey(principal);
    return this.createTenant(input, requestId);
  }

  /**
   * The bootstrap path shared with the CLI and the local launcher: tenant, key and owner in one
   * transaction, then the owner's invitation; if it cannot be queued the tenant is withdrawn (503).
   */
  async createTenant(input: CreateTenantDto, requestId: string | null = null): Promise<CreatedTenantResponse> {
    const ownerEmail = input.ownerEmail === undefined ? null : validEmail(input.ownerEmail, 'ownerEmail');
    const created = await this.tenants.transaction(async (manager) => {
      const tenant = await this.tenants.insert(manager, { name: input.name, plan: input.plan });
      const apiKey = await this.apiKeys.create({ tenantId: tenant.id, organizationId: null }, 'Initial key', manager);
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
    return { data: [await this.get(principal, principal.tenantId)], nextCursor: null };
  }

  async get(principal: Principal, id: string): Promise<TenantResponse> {
    return this.toResponse(await this.findReachable(principal, id));
  }

  /** Platform key, tenant key or member: an organization key may read its tenant but not change it. */
  async update(principal: Principal, id: string, input: UpdateTenantDto): Promise<TenantResponse> {
    const tenant = await this.findReachable(principal.kind === 'platform' ? principal : requireTenantKey(principal), id);
    if (input.plan !== undefined && input.plan !== tenant.plan && principal.kind !== 'platform') {
      throw forbidden('plan_change_forbidden', 'Only the platform key can change a plan');
    }
    if (input.name !== undefined) tenant.name = input.name;
    if (input.plan !== undefined) tenant.plan = input.plan;
    return this.toResponse(await this.tenants.save(tenant));
  }

  private async findReachable(principal: Principal, id: string): Promise<Tenant> {
    const reachable = principal.kind === 'platform' || requireTenantScope(principal).tenantId === id;
    const tenant = reachable ? await this.tenants.find(id) : null;
    if (!tenant) throw notFound('tenant');
    return tenant;
  }

  private toResponse(tenant: Tenant): TenantResponse {
    return TenantResponse.from(tenant, this.config.limits.plans[tenant.plan]);
  }
}
