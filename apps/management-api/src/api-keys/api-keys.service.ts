import { Injectable } from '@nestjs/common';
import {
  CacheInvalidationBus,
  Clock,
  lowerRole,
  notFound,
  Page,
  PageQuery,
  problem,
  Role,
  roleIncludes,
  toPage,
  validationFailed,
} from '@sesame/common';
import { ApiKeyOwner, ApiKeyRepository, ApiKeyWithCreator, Transactions, WebhookEventRepository } from '@sesame/entities';
import { ApiKeyVerifier, generateApiKey, TenantScopedPrincipal } from '@sesame/guards';
import { EntityManager } from 'typeorm';
import { apiKeyEvent } from '../webhooks/change-events';
import { ApiKeyResponse, CreatedApiKeyResponse } from './dto/api-key.dto';

/** Who creates a key: its role bounds the key's, and it is recorded on the key (a member's keys go with them). */
export interface KeyCreator {
  role: Role;
  memberId: string | null;
  apiKeyId: string | null;
}

/** The creator a caller is. */
export function keyCreatorOf(principal: TenantScopedPrincipal): KeyCreator {
  return principal.kind === 'member'
    ? { role: principal.role, memberId: principal.memberId, apiKeyId: null }
    : { role: principal.role, memberId: null, apiKeyId: principal.apiKeyId };
}

/** The tenant's first key, made with the tenant by the platform key. */
export const FIRST_KEY_CREATOR: KeyCreator = { role: 'owner', memberId: null, apiKeyId: null };

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly verifier: ApiKeyVerifier,
    private readonly clock: Clock,
    private readonly invalidations: CacheInvalidationBus,
    private readonly transactions: Transactions,
    private readonly webhookEvents: WebhookEventRepository,
  ) {}

  /**
   * Creates a key with a role no higher than its creator's (an organization key: admin or viewer);
   * without one it gets admin, or the creator's role where that is lower. The returned response is
   * the only place the key itself ever appears.
   */
  async create(
    owner: ApiKeyOwner,
    creator: KeyCreator,
    input: { name: string; role?: Role },
    manager: EntityManager | null = null,
  ): Promise<CreatedApiKeyResponse> {
    const role = input.role ?? lowerRole('admin', creator.role);
    if (owner.organizationId && role === 'owner')
      throw validationFailed([{ field: 'role', message: 'An organization key is admin or viewer' }]);
    if (!roleIncludes(creator.role, role))
      throw problem('insufficient_role', `A key's role can be no higher than its creator's (${creator.role})`);
    const { key, prefix, hash } = generateApiKey();
    const created = await this.transactions.runIn(manager, async (inTransaction) => {
      const inserted = await this.keys.insert(inTransaction, {
        ...owner,
        name: input.name,
        prefix,
        hash,
        role,
        createdByMemberId: creator.memberId,
        createdByApiKeyId: creator.apiKeyId,
      });
      await this.webhookEvents.record(inTransaction, apiKeyEvent('api_key.created', owner.tenantId, inserted));
      return inserted;
    });
    return CreatedApiKeyResponse.withKey(created, key);
  }

  async list(owner: ApiKeyOwner, page: PageQuery): Promise<Page<ApiKeyResponse>> {
    return toPage(await this.keys.list(owner, page), page.limit, ApiKeyResponse.from);
  }

  /**
   * Revokes a key, if the caller's role is at least the key's: at once on every instance (on the
   * others within API_KEY_CACHE_SECONDS while Redis is away). Revoking twice is harmless.
   */
  async revoke(owner: ApiKeyOwner, revoker: Role, id: string): Promise<void> {
    const key = await this.findOrFail(owner, id);
    if (!roleIncludes(revoker, key.role)) throw problem('insufficient_role', `Revoking this key needs the ${key.role} role`);
    await this.transactions.run(async (manager) => {
      if (await this.keys.revoke(manager, key.id, this.clock.now()))
        await this.webhookEvents.record(manager, apiKeyEvent('api_key.revoked', owner.tenantId, key));
    });
    this.verifier.forget(key.hash);
    await this.invalidations.publish({ kind: 'api-key', apiKeyId: key.id });
  }

  private async findOrFail(owner: ApiKeyOwner, id: string): Promise<ApiKeyWithCreator> {
    const key = await this.keys.find(owner, id);
    if (!key) throw notFound('API key');
    return key;
  }
}
