import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PageQuery, Role } from '@sesame/common';
import { ApiKey, keysetQueryBuilder } from '@sesame/entities';
import { EntityManager, IsNull, Repository } from 'typeorm';

/** The owner of a set of keys: a tenant's own keys (organizationId null) or one organization's. */
export interface ApiKeyOwner {
  tenantId: string;
  organizationId: string | null;
}

/** A key a cascade changed: revoked or capped with the member who created it. */
export interface CascadedKey {
  id: string;
  hash: Buffer;
  role: Role;
}

/**
 * The keys a member created, and the keys those keys created, and so on (a removed admin's key
 * must not live on through a key it made). The UPDATEs after it are wrapped in a CTE because
 * TypeORM reshapes the result of a bare UPDATE … RETURNING.
 */
const MADE_BY_MEMBER = `WITH RECURSIVE made(id) AS (
    SELECT id FROM api_key WHERE tenant_id = $1 AND created_by_member_id = $2
    UNION SELECT k.id FROM api_key k JOIN made ON k.created_by_api_key_id = made.id)`;

@Injectable()
export class ApiKeyRepository {
  constructor(@InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>) {}

  insert(manager: EntityManager | null, key: Pick<ApiKey, 'tenantId' | 'organizationId' | 'name' | 'prefix' | 'hash' | 'role' | 'createdByMemberId' | 'createdByApiKeyId'>): Promise<ApiKey> {
    const repository = manager ? manager.getRepository(ApiKey) : this.keys;
    return repository.save(repository.create(key));
  }

  /** `limit + 1` keys of the owner after the cursor, oldest first, with who created them. */
  list(owner: ApiKeyOwner, page: PageQuery): Promise<ApiKey[]> {
    const query = this.keys
      .createQueryBuilder('key')
      .leftJoinAndSelect('key.createdByMember', 'creatorMember')
      .leftJoinAndSelect('key.createdByApiKey', 'creatorKey')
      .where('key.tenantId = :tenantId', { tenantId: owner.tenantId });
    if (owner.organizationId) query.andWhere('key.organizationId = :organizationId', { organizationId: owner.organizationId });
    else query.andWhere('key.organizationId IS NULL');
    return keysetQueryBuilder(query, page).getMany();
  }

  find(owner: ApiKeyOwner, id: string): Promise<ApiKey | null> {
    return this.keys.findOne({ where: { id, tenantId: owner.tenantId, organizationId: owner.organizationId ?? IsNull() }, relations: { createdByMember: true, createdByApiKey: true } });
  }

  async revoke(key: ApiKey, at: Date): Promise<void> {
    await this.keys.update({ id: key.id, revokedAt: IsNull() }, { revokedAt: at });
  }

  /** Revokes the live keys a member created (transitively), in the caller's transaction. */
  revokeMadeBy(manager: EntityManager, tenantId: string, memberId: string, at: Date): Promise<CascadedKey[]> {
    return manager.query(
      `${MADE_BY_MEMBER},
       revoked AS (UPDATE api_key SET revoked_at = $3 WHERE id IN (SELECT id FROM made) AND revoked_at IS NULL RETURNING id, hash, role)
       SELECT * FROM revoked`,
      [tenantId, memberId, at],
    );
  }

  /** Lowers the live keys a member created (transitively) to at most `role`, in the caller's transaction. */
  capMadeBy(manager: EntityManager, tenantId: string, memberId: string, role: Role): Promise<CascadedKey[]> {
    return manager.query(
      `${MADE_BY_MEMBER},
       capped AS (UPDATE api_key SET role = $3 WHERE id IN (SELECT id FROM made) AND revoked_at IS NULL AND role > $3::access_role RETURNING id, hash, role)
       SELECT * FROM capped`,
      [tenantId, memberId, role],
    );
  }
}
