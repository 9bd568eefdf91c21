import { Inject, Injectable } from '@nestjs/common';
import {
  CacheInvalidationBus,
  ClientSecretVerifier,
  Clock,
  normalizeAll,
  notFound,
  Page,
  PageQuery,
  problem,
  SecretBox,
  SESAME_CONFIG,
  SesameConfig,
  toPage,
  validateCallbackUrl,
  validationFailed,
} from '@sesame/common';
import { AccessTokenRepository, Application, ApplicationRepository, Transactions, WebhookEventRepository } from '@sesame/entities';
import { generateClientId, generateClientSecret } from './client-credentials';
import {
  ApplicationResponse,
  ApplicationSummary,
  CreateApplicationDto,
  IdTokenEncryptionAlgorithm,
  RotateSecretDto,
  UpdateApplicationDto,
} from './dto/application.dto';

/** Applications of one organization (AccessGuard has checked the organization is in the caller's reach). */
@Injectable()
export class ApplicationsService {
  constructor(
    private readonly applications: ApplicationRepository,
    private readonly accessTokens: AccessTokenRepository,
    private readonly transactions: Transactions,
    private readonly box: SecretBox,
    private readonly verifiers: ClientSecretVerifier,
    private readonly clock: Clock,
    private readonly invalidations: CacheInvalidationBus,
    private readonly webhookEvents: WebhookEventRepository,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  async list(organizationId: string, page: PageQuery): Promise<Page<ApplicationSummary>> {
    return toPage(await this.applications.list(organizationId, page), page.limit, ApplicationSummary.from);
  }

  /** The integration data; the client secret only when asked for (`withSecret`: the caller may read it, and the read is audited). */
  async get(organizationId: string, id: string, withSecret: boolean): Promise<ApplicationResponse> {
    const application = await this.findOrFail(organizationId, id);
    return withSecret ? this.withSecret(application) : withoutSecret(application);
  }

  async create(organizationId: string, input: CreateApplicationDto): Promise<ApplicationResponse> {
    const clientId = generateClientId();
    const web = input.type === 'web';
    const secret = web ? generateClientSecret(this.box, this.verifiers, clientId) : null;
    const application = await this.applications.insert({
      organizationId,
      name: input.name,
      type: input.type,
      clientId,
      clientSecretHash: null,
      clientSecretVerifier: secret?.verifier ?? null,
      clientSecretEncrypted: secret?.encrypted ?? null,
      previousClientSecretVerifier: null,
      previousClientSecretEncrypted: null,
      previousClientSecretExpiresAt: null,
      // Web apps get the encrypted id_token unless they ask for a signed one; native apps have no secret to encrypt with.
      idTokenEncryptedResponseAlg: idTokenEncryption(
        web,
        input.idTokenEncryptedResponseAlg === undefined ? (web ? 'dir' : null) : input.idTokenEncryptedResponseAlg,
      ),
      callbackUrls: normalizeAll('callbackUrls', input.callbackUrls ?? [], (url) => validateCallbackUrl(url, input.type)),
    });
    return this.withSecret(application);
  }

  async update(organizationId: string, id: string, input: UpdateApplicationDto): Promise<ApplicationResponse> {
    const application = await this.findOrFail(organizationId, id);
    if (input.name !== undefined) application.name = input.name;
    if (input.callbackUrls !== undefined)
      application.callbackUrls = normalizeAll('callbackUrls', input.callbackUrls, (url) => validateCallbackUrl(url, application.type));
    if (input.idTokenEncryptedResponseAlg !== undefined)
      application.idTokenEncryptedResponseAlg = idTokenEncryption(application.type === 'web', input.idTokenEncryptedResponseAlg);
    const saved = await this.applications.updateSettings(application);
    // auth-api instances cache the application's callback URLs and whether its id_tokens are encrypted.
    await this.changed(id);
    return withoutSecret(saved);
  }

  /**
   * Replaces a web app's secret. The replaced one keeps working for `overlapSeconds` (default
   * CLIENT_SECRET_ROTATION_OVERLAP_SECONDS), so running deployments can switch over; 0 stops it
   * at once. Optionally every access token of the application is revoked in the same transaction.
   * Every auth-api instance drops the application from its cache once the change has committed
   * (within CLIENT_CACHE_SECONDS while Redis is away); cached userinfo answers of revoked tokens
   * last up to ACCESS_TOKEN_CACHE_SECONDS.
   */
  async rotateSecret(organizationId: string, id: string, options: RotateSecretDto): Promise<ApplicationResponse> {
    const application = await this.findOrFail(organizationId, id);
    if (application.type !== 'web') throw problem('no_client_secret', 'Native applications have no client secret; they use PKCE');
    const now = this.clock.now();
    const overlapSeconds = options.overlapSeconds ?? this.config.auth.clientSecretRotationOverlapSeconds;
    const keepPrevious = overlapSeconds > 0 && application.clientSecretEncrypted !== null;
    const previous = keepPrevious ? this.box.decrypt(application.clientSecretEncrypted!, application.clientId) : null;
    const secret = generateClientSecret(this.box, this.verifiers, application.clientId);
    application.previousClientSecretVerifier = previous === null ? null : this.verifiers.of(previous);
    application.previousClientSecretEncrypted = previous === null ? null : application.clientSecretEncrypted;
    application.previousClientSecretExpiresAt = previous === null ? null : new Date(now.getTime() + overlapSeconds * 1000);
    application.clientSecretHash = null;
    application.clientSecretVerifier = secret.verifier;
    application.clientSecretEncrypted = secret.encrypted;
    const saved = await this.transactions.run(async (manager) => {
      const updated = await this.applications.updateSecrets(manager, application);
      if (options.revokeAccessTokens) await this.accessTokens.revokeAllOfApplication(manager, application.id, now);
      await this.webhookEvents.record(manager, {
        type: 'application.secret_rotated',
        scope: { organizationId },
        data: {
          application: { id: application.id, clientId: application.clientId, name: application.name, organizationId },
          previousSecretExpiresAt: application.previousClientSecretExpiresAt?.toISOString() ?? null,
          accessTokensRevoked: options.revokeAccessTokens ?? false,
        },
      });
      return updated;
    });
    await this.changed(id);
    return this.withSecret(saved);
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.findOrFail(organizationId, id);
    await this.applications.delete(organizationId, id);
    await this.changed(id);
  }

  /** After the change has committed, so that no instance reads the old row again once it has dropped it. */
  private changed(applicationId: string): Promise<void> {
    return this.invalidations.publish({ kind: 'application', applicationId });
  }

  /**
   * Computes the HMAC verifier of every client secret still stored as a bare SHA-256 (rows from
   * before verifiers), from the sealed secret, and erases the hash. Run by `npm run cli -- migrate`.
   */
  upgradeLegacyVerifiers(): Promise<number> {
    return this.transactions.run(async (manager) => {
      const legacy = await this.applications.lockLegacyHashes(manager);
      for (const application of legacy) {
        await this.applications.replaceLegacyHash(
          manager,
          application.id,
          this.verifiers.of(this.box.decrypt(application.clientSecretEncrypted!, application.clientId)),
        );
      }
      return legacy.length;
    });
  }

  private async findOrFail(organizationId: string, id: string): Promise<Application> {
    const application = await this.applications.find(organizationId, id);
    if (!application) throw notFound('application');
    return application;
  }

  private withSecret(application: Application): ApplicationResponse {
    const clientSecret = application.clientSecretEncrypted
      ? this.box.decrypt(application.clientSecretEncrypted, application.clientId)
      : null;
    return { ...ApplicationSummary.from(application), clientSecret };
  }
}

/** A read without the secret: it is answered on creation and rotation, and on purpose (`include=secret`). */
function withoutSecret(application: Application): ApplicationResponse {
  return { ...ApplicationSummary.from(application), clientSecret: null };
}

/** Native apps have no secret to derive an encryption key from: their id_tokens are always signed only. */
function idTokenEncryption(web: boolean, requested: IdTokenEncryptionAlgorithm | null): IdTokenEncryptionAlgorithm | null {
  if (requested !== null && !web) {
    throw validationFailed([
      {
        field: 'idTokenEncryptedResponseAlg',
        message: 'idTokenEncryptedResponseAlg must be null for native applications: they have no client secret to encrypt with',
      },
    ]);
  }
  return requested;
}
