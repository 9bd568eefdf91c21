import { Injectable } from '@nestjs/common';
import { Clock, notFound, Page, PageQuery, toPage } from '@sesame/common';
import { ApiKey } from '@sesame/entities';
import { ApiKeyVerifier, generateApiKey } from '@sesame/guards';
import { EntityManager } from 'typeorm';
import { ApiKeyOwner, ApiKeyRepository } from './api-key.repository';
import { ApiKeyResponse, CreatedApiKeyResponse } from './dto/api-key.dto';

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly verifier: ApiKeyVerifier,
    private readonly clock: Clock,
  ) {}

  /** Creates a key; the returned response is the only place the key itself ever appears. */
  async create(owner: ApiKeyOwner, name: string, manager: EntityManager | null = null): Promise<CreatedApiKeyResponse> {
    const { key, prefix, hash } = generateApiKey();
    const entity = await this.keys.insert(manager, { ...owner, name, prefix, hash });
    return CreatedApiKeyResponse.withKey(entity, key);
  }

  async list(owner: ApiKeyOwner, page: PageQuery): Promise<Page<ApiKeyResponse>> {
    return toPage(await this.keys.list(owner, page), page.limit, ApiKeyResponse.from);
  }

  /** Revokes a key: at once on this instance, within API_KEY_CACHE_SECONDS on the others. Revoking twice is harmless. */
  async revoke(owner: ApiKeyOwner, id: string): Promise<void> {
    const key = await this.findOrFail(owner, id);
    await this.keys.revoke(key, this.clock.now());
    this.verifier.forget(key.hash);
  }

  private async findOrFail(owner: ApiKeyOwner, id: string): Promise<ApiKey> {
    const key = await this.keys.find(owner, id);
    if (!key) throw notFound('API key');
    return key;
  }
}
