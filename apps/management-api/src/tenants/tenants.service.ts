import { Inject, Injectable } from '@nestjs/common';
import { forbidden, notFound, Page, PageQuery, SESAME_CONFIG, SesameConfig, toPage } from '@sesame/common';
import { Tenant } from '@sesame/entities';
import { Principal } from '@sesame/guards';
import { requirePlatformKey, requireTenantKey, requireTenantScope } from '../access/access';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { CreatedTenantResponse, CreateTenantDto, TenantResponse, UpdateTenantDto } from './dto/tenant.dto';
import { TenantRepository } from './tenant.repository';

@Injectable()
export class TenantsService {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly apiKeys: ApiKeysService,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  /** Creates a tenant and its first tenant key in one transaction (platform key). */
  async create(principal: Principal, input: CreateTenantDto): Promise<CreatedTenantResponse> {
    requirePlatformKey(principal);
    return this.createTenant(input);
  }

  /** The bootstrap path shared with the CLI and the local launcher. */
  async createTenant(input: CreateTenantDto): Promise<CreatedTenantResponse> {
    return this.tenants.transaction(async (manager) => {
      const tenant = await this.tenants.insert(manager, { name: input.name, plan: input.plan });
      const apiKey = await this.apiKeys.create({ tenantId: tenant.id, organizationId: null }, 'Initial key', manager);
      return { tenant: this.toResponse(tenant), apiKey };
    });
  }

  /** The platform key lists every tenant; any other key sees only its own tenant. */
  async list(principal: Principal, page: PageQuery): Promise<Page<TenantResponse>> {
    if (principal.kind === 'platform') {
      return toPage(await this.tenants.list(page), page.limit, (tenant) => this.toResponse(tenant));
    }
    return { data: [await this.get(principal, principal.tenantId)], nextCursor: null };
  }

  async get(principal: Principal, id: string): Promise<TenantResponse> {
    return this.toResponse(await this.findReachable(principal, id));
  }

  /** Platform key or tenant key: an organization key may read its tenant but not change it. */
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
