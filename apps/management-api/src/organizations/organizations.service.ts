import { Injectable } from '@nestjs/common';
import { normalizeAll, normalizeWhitelistDomain, notFound, Page, PageQuery, toPage } from '@sesame/common';
import { Organization } from '@sesame/entities';
import { ApiKeyVerifier, Principal, TenantScopedPrincipal } from '@sesame/guards';
import { requireTenantKey, requireTenantScope } from '../access/access';
import { CreateOrganizationDto, OrganizationResponse, UpdateOrganizationDto } from './dto/organization.dto';
import { OrganizationRepository } from './organization.repository';

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly apiKeys: ApiKeyVerifier,
  ) {}

  /**
   * The organization if the principal may reach it: a tenant key or a member reaches its tenant's
   * organizations, an organization key only its own. Anything else is "not found".
   */
  async findReachable(principal: Principal, id: string): Promise<Organization> {
    const scope = requireTenantScope(principal);
    const organization = canReach(scope, id) ? await this.organizations.find(scope.tenantId, id) : null;
    if (!organization) throw notFound('organization');
    return organization;
  }

  async get(principal: Principal, id: string): Promise<OrganizationResponse> {
    return OrganizationResponse.from(await this.findReachable(principal, id));
  }

  async list(principal: Principal, page: PageQuery): Promise<Page<OrganizationResponse>> {
    const { tenantId } = requireTenantKey(principal);
    return toPage(await this.organizations.list(tenantId, page), page.limit, OrganizationResponse.from);
  }

  async create(principal: Principal, input: CreateOrganizationDto): Promise<OrganizationResponse> {
    const { tenantId } = requireTenantKey(principal);
    const organization = await this.organizations.insert({
      tenantId,
      name: input.name,
      whitelistDomains: normalizeAll('whitelistDomains', input.whitelistDomains ?? [], normalizeWhitelistDomain),
      autologin: input.autologin ?? false,
      linkTtlSeconds: input.linkTtlSeconds,
    });
    return OrganizationResponse.from(organization);
  }

  async update(principal: Principal, id: string, input: UpdateOrganizationDto): Promise<OrganizationResponse> {
    const organization = await this.findReachable(principal, id);
    if (input.name !== undefined) organization.name = input.name;
    if (input.whitelistDomains !== undefined) organization.whitelistDomains = normalizeAll('whitelistDomains', input.whitelistDomains, normalizeWhitelistDomain);
    if (input.autologin !== undefined) organization.autologin = input.autologin;
    if (input.linkTtlSeconds !== undefined) organization.linkTtlSeconds = input.linkTtlSeconds;
    return OrganizationResponse.from(await this.organizations.save(organization));
  }

  async delete(principal: Principal, id: string): Promise<void> {
    const organization = await this.findReachable(principal, id);
    await this.organizations.delete(organization.tenantId, organization.id);
    // Its keys went with it (ON DELETE CASCADE): they stop working at once on this instance too.
    this.apiKeys.forgetOrganization(organization.id);
  }
}

function canReach(scope: TenantScopedPrincipal, organizationId: string): boolean {
  return scope.kind !== 'organization' || scope.organizationId === organizationId;
}
