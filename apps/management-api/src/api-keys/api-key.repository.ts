import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PageQuery } from '@sesame/common';
import { ApiKey, keysetPage } from '@sesame/entities';
import { EntityManager, IsNull, Repository } from 'typeorm';

/** The owner of a set of keys: a tenant's own keys (organizationId null) or one organization's. */
export interface ApiKeyOwner {
  tenantId: string;
  organizationId: string | null;
}

@Injectable()
export class ApiKeyRepository {
  constructor(@InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>) {}

  insert(manager: EntityManager | null, key: Pick<ApiKey, 'tenantId' | 'organizationId' | 'name' | 'prefix' | 'hash'>): Promise<ApiKey> {
    const repository = manager ? manager.getRepository(ApiKey) : this.keys;
    return repository.save(repository.create(key));
  }

  /** `limit + 1` keys of the owner after the cursor, oldest first. */
  list(owner: ApiKeyOwner, page: PageQuery): Promise<ApiKey[]> {
    const query = this.keys.createQueryBuilder('key').where('key.tenantId = :tenantId', { tenantId: owner.tenantId });
    if (owner.organizationId) query.andWhere('key.organizationId = :organizationId', { organizationId: owner.organizationId });
    else query.andWhere('key.organizationId IS NULL');
    return keysetPage(query, page).getMany();
  }


  find(owner: ApiKeyOwner, id: string): Promise<ApiKey | null> {
    return this.keys.findOneBy({ id, tenantId: owner.tenantId, organizationId: owner.organizationId ?? IsNull() });
  }

  async revoke(key: ApiKey, at: Date): Promise<void> {
    await this.keys.update({ id: key.id, revokedAt: IsNull() }, { revokedAt: at });
  }
}
