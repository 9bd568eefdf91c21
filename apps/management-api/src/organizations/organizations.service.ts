import { Injectable } from '@nestjs/common';
import { CacheInvalidationBus, normalizeAll, normalizeWhitelistDomain, Page, PageQuery, toPage } from '@sesame/common';
import { Organization, OrganizationRepository } from '@sesame/entities';
import { ApiKeyVerifier } from '@sesame/guards';
import { CreateOrganizationDto, OrganizationResponse, UpdateOrganizationDto } from './dto/organization.dto';

/** A tenant's organizations (AccessGuard has checked the caller's reach: routes get the organization itself). */
@Injectable()
export class OrganizationsService {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly apiKeys: ApiKeyVerifier,
    private readonly invalidations: CacheInvalidationBus,
  ) {}

  async list(tenantId: string, page: PageQuery): Promise<Page<OrganizationResponse>> {
    return toPage(await this.organizations.list(tenantId, page), page.limit, OrganizationResponse.from);
  }

  async create(tenantId: string, input: CreateOrganizationDto): Promise<OrganizationResponse> {
    const organization = await this.organizations.insert({
      tenantId,
      name: input.name,
      whitelistDomains: normalizeAll('whitelistDomains', input.whitelistDomains ?? [], normalizeWhitelistDomain),
      autologin: input.autologin ?? false,
      linkTtlSeconds: input.linkTtlSeconds,
      passkeys: input.passkeys,
    });
    return OrganizationResponse.from(organization);
  }

  async update(organization: Organization, input: UpdateOrganizationDto): Promise<OrganizationResponse> {
    if (input.name !== undefined) organization.name = input.name;
    if (input.whitelistDomains !== undefined)
      organization.whitelistDomains = normalizeAll('whitelistDomains', input.whitelistDomains, normalizeWhitelistDomain);
    if (input.autologin !== undefined) organization.autologin = input.autologin;
    if (input.linkTtlSeconds !== undefined) organization.linkTtlSeconds = input.linkTtlSeconds;
    if (input.passkeys !== undefined) organization.passkeys = input.passkeys;
    const updated = await this.organizations.update(organization);
    // auth-api instances cache the settings a login starts from (whitelist, link lifetime, passkeys).
    await this.invalidations.publish({ kind: 'organization', organizationId: organization.id });
    return OrganizationResponse.from(updated);
  }

  async delete(organization: Organization): Promise<void> {
    await this.organizations.delete(organization.tenantId, organization.id);
    // Its keys and applications went with it (ON DELETE CASCADE): they stop working at once, here even while Redis is away.
    this.apiKeys.forgetOrganization(organization.id);
    await this.invalidations.publish({ kind: 'organization', organizationId: organization.id });
  }
}
