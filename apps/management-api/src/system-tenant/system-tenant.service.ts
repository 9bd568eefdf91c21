import { Inject, Injectable } from '@nestjs/common';
import { normalizeAll, normalizeWhitelistDomain, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { Application, ApplicationRepository, Organization, OrganizationRepository, Tenant, TenantRepository } from '@sesame/entities';
import { EntityManager } from 'typeorm';
import { ApplicationsService } from '../applications/applications.service';

/** The console's credentials, as `console:setup` hands them to the console (CONSOLE_CREDENTIALS_FILE). */
export interface ConsoleCredentials {
  clientId: string;
  clientSecret: string;
}

/** The path of the console's callback under CONSOLE_PUBLIC_URL. */
export const CONSOLE_CALLBACK_PATH = '/auth/callback';

/**
 * The console is an application of Sesame like any customer's: a system tenant (plan enterprise,
 * hidden from the tenant list and out of every key's reach) with one organization whose whitelist is
 * the console's origin, and one web application whose callback is the console's. Only tokens issued
 * to that application open the management API to members.
 */
@Injectable()
export class SystemTenantService {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly organizations: OrganizationRepository,
    private readonly applicationRows: ApplicationRepository,
    private readonly applications: ApplicationsService,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  /**
   * Creates what is missing and brings the whitelist and callback up to date with
   * CONSOLE_PUBLIC_URL; running it again changes nothing, and a run cut short is completed by the
   * next. Concurrent runs take turns (a session advisory lock). `rotateSecret` replaces the
   * application's client secret (the console must then be restarted with the new one).
   */
  async ensureConsole(options: { rotateSecret?: boolean } = {}): Promise<ConsoleCredentials> {
    const publicUrl = this.config.console.publicUrl;
    const [origin] = normalizeAll('CONSOLE_PUBLIC_URL', [new URL(publicUrl).origin], normalizeWhitelistDomain);
    return this.tenants.whileSettingUpSystem(async (manager) => {
      const tenant =
        (await this.tenants.findSystem(manager)) ??
        (await this.tenants.insert(manager, { name: 'Sesame', plan: 'enterprise', system: true }));
      const organization = await this.ensureOrganization(manager, tenant, origin);
      const application = await this.ensureApplication(manager, organization, `${publicUrl}${CONSOLE_CALLBACK_PATH}`);
      const { clientId, clientSecret } = options.rotateSecret
        ? await this.applications.rotateSecret(organization.id, application.id, {})
        : await this.applications.get(organization.id, application.id, true);
      return { clientId, clientSecret: clientSecret! };
    });
  }

  private async ensureOrganization(manager: EntityManager, tenant: Tenant, origin: string): Promise<Organization> {
    const existing = await this.organizations.findFirstOf(manager, tenant.id);
    if (!existing) return this.organizations.insert(manager, { tenantId: tenant.id, name: 'Sesame Console', whitelistDomains: [origin] });
    if (existing.whitelistDomains.length === 1 && existing.whitelistDomains[0] === origin) return existing;
    return this.organizations.update(manager, { ...existing, whitelistDomains: [origin] });
  }

  private async ensureApplication(manager: EntityManager, organization: Organization, callbackUrl: string): Promise<Application> {
    const existing = await this.applicationRows.findFirstOf(manager, organization.id);
    if (!existing) {
      const created = await this.applications.create(organization.id, { name: 'Sesame Console', type: 'web', callbackUrls: [callbackUrl] });
      return (await this.applicationRows.find(organization.id, created.id))!;
    }
    if (existing.callbackUrls.length === 1 && existing.callbackUrls[0] === callbackUrl) return existing;
    await this.applications.update(organization.id, existing.id, { callbackUrls: [callbackUrl] });
    return existing;
  }
}
