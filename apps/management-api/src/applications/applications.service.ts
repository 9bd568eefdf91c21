import { Injectable } from '@nestjs/common';
import { badRequest, normalizeAll, notFound, Page, PageQuery, SecretBox, toPage, validateCallbackUrl } from '@sesame/common';
import { Application } from '@sesame/entities';
import { ApplicationRepository } from './application.repository';
import { generateClientId, generateClientSecret } from './client-credentials';
import { ApplicationResponse, ApplicationSummary, CreateApplicationDto, UpdateApplicationDto } from './dto/application.dto';

/** Applications of one organization; the caller has already checked the organization is in reach. */
@Injectable()
export class ApplicationsService {
  constructor(
    private readonly applications: ApplicationRepository,
    private readonly box: SecretBox,
  ) {}

  async list(organizationId: string, page: PageQuery): Promise<Page<ApplicationSummary>> {
    return toPage(await this.applications.list(organizationId, page), page.limit, ApplicationSummary.from);
  }

  async get(organizationId: string, id: string): Promise<ApplicationResponse> {
    return this.withSecret(await this.findOrFail(organizationId, id));
  }

  async create(organizationId: string, input: CreateApplicationDto): Promise<ApplicationResponse> {
    const clientId = generateClientId();
    const secret = input.type === 'web' ? generateClientSecret(this.box, clientId) : null;
    const application = await this.applications.insert({
      organizationId,
      name: input.name,
      type: input.type,
      clientId,
      clientSecretHash: secret?.hash ?? null,
      clientSecretEncrypted: secret?.encrypted ?? null,
      callbackUrls: normalizeAll('callbackUrls', input.callbackUrls ?? [], (url) => validateCallbackUrl(url, input.type)),
    });
    return this.withSecret(application);
  }

  async update(organizationId: string, id: string, input: UpdateApplicationDto): Promise<ApplicationResponse> {
    const application = await this.findOrFail(organizationId, id);
    if (input.name !== undefined) application.name = input.name;
    if (input.callbackUrls !== undefined) application.callbackUrls = normalizeAll('callbackUrls', input.callbackUrls, (url) => validateCallbackUrl(url, application.type));
    return this.withSecret(await this.applications.save(application));
  }

  /** Replaces a web app's secret; the old one stops working within CLIENT_CACHE_SECONDS (auth-api caches client lookups). */
  async rotateSecret(organizationId: string, id: string): Promise<ApplicationResponse> {
    const application = await this.findOrFail(organizationId, id);
    if (application.type !== 'web') throw badRequest('no_client_secret', 'Native applications have no client secret; they use PKCE');
    const secret = generateClientSecret(this.box, application.clientId);
    application.clientSecretHash = secret.hash;
    application.clientSecretEncrypted = secret.encrypted;
    return this.withSecret(await this.applications.save(application));
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.findOrFail(organizationId, id);
    await this.applications.delete(organizationId, id);
  }

  private async findOrFail(organizationId: string, id: string): Promise<Application> {
    const application = await this.applications.find(organizationId, id);
    if (!application) throw notFound('application');
    return application;
  }

  private withSecret(application: Application): ApplicationResponse {
    const clientSecret = application.clientSecretEncrypted ? this.box.decrypt(application.clientSecretEncrypted, application.clientId) : null;
    return { ...ApplicationSummary.from(application), clientSecret };
  }
}
