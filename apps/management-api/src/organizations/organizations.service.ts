import { Injectable } from '@nestjs/common';
import { CacheInvalidationBus, normalizeAll, normalizeWhitelistDomain, Page, PageQuery, toPage } from '@sesame/common';
import { Organization, OrganizationRepository, Transactions, WebhookEventRepository } from '@sesame/entities';
import { ApiKeyVerifier } from '@sesame/guards';
import { organizationEvent } from '../webhooks/change-events';
import { CreateOrganizationDto, OrganizationResponse, UpdateOrganizationDto } from './dto/organization.dto';

/**
 * A tenant's organizations (AccessGuard has checked the caller's reach: routes get the organization
 * itself). Each change is reported (`organization.*`) in its own transaction.
 */
@Injectable()
export class OrganizationsService {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly apiKeys: ApiKeyVerifier,
    private readonly invalidations: CacheInvalidationBus,
    private readonly transactions: Transactions,
    private readonly webhookEvents: WebhookEventRepository,
  ) {}

  async list(tenantId: string, page: PageQuery): Promise<Page<OrganizationResponse>> {
    return toPage(await this.organizations.list(tenantId, page), page.limit, OrganizationResponse.from);
  }

  async create(tenantId: string, input: CreateOrganizationDto): Promise<OrganizationResponse> {
    const organization = await this.transactions.run(async (manager) => {
      const inserted = await this.organizations.insert(manager, {
        tenantId,
        name: input.name,
        whitelistDomains: normalizeAll('whitelistDomains', input.whitelistDomains ?? [], normalizeWhitelistDomain),
        autologin: input.autologin ?? false,
        linkTtlSeconds: input.linkTtlSeconds,
        passkeys: input.passkeys,
      });
      await this.webhookEvents.record(manager, organizationEvent('organization.created', inserted));
      return inserted;
    });
    return OrganizationResponse.from(organization);
  }

  /** Reported only when a setting changed (the row's updated_at moved). */
  async update(organization: Organization, input: UpdateOrganizationDto): Promise<OrganizationResponse> {
    const changed: Organization = {
      ...organization,
      name: input.name ?? organization.name,
      whitelistDomains:
        input.whitelistDomains === undefined
          ? organization.whitelistDomains
          : normalizeAll('whitelistDomains', input.whitelistDomains, normalizeWhitelistDomain),
      autologin: input.autologin ?? organization.autologin,
      linkTtlSeconds: input.linkTtlSeconds ?? organization.linkTtlSeconds,
      passkeys: input.passkeys ?? organization.passkeys,
    };
    const updated = await this.transactions.run(async (manager) => {
      const written = await this.organizations.update(manager, changed);
      if (written.updatedAt.getTime() !== organization.updatedAt.getTime())
        await this.webhookEvents.record(manager, organizationEvent('organization.updated', written));
      return written;
    });
    // auth-api instances cache the settings a login starts from (whitelist, link lifetime, passkeys).
    await this.invalidations.publish({ kind: 'organization', organizationId: organization.id });
    return OrganizationResponse.from(updated);
  }

  async delete(organization: Organization): Promise<void> {
    await this.transactions.run(async (manager) => {
      const deleted = await this.organizations.delete(manager, organization.tenantId, organization.id);
      if (deleted) await this.webhookEvents.record(manager, organizationEvent('organization.deleted', deleted));
    });
    // Its keys and applications went with it (ON DELETE CASCADE): they stop working at once, here even while Redis is away.
    this.apiKeys.forgetOrganization(organization.id);
    await this.invalidations.publish({ kind: 'organization', organizationId: organization.id });
  }
}
