import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PageQuery, Plan, Role } from '@sesame/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiKey } from '../entities/api-key.entity';
import { keysetPage } from './keyset-page';

/** The owner of a set of keys: a tenant's own keys (organizationId null) or one organization's. */
export interface ApiKeyOwner {
  tenantId: string;
  organizationId: string | null;
}

/** Who created a key: a member (named by their address) or another key (by its name). */
export interface ApiKeyCreator {
  type: 'member' | 'api_key';
  id: string;
  name: string;
}

/** A key as the management API shows it: with its creator, null for a tenant's first key (the platform key made it) and once the creator is gone. */
export type ApiKeyWithCreator = Omit<ApiKey, 'tenant' | 'organization' | 'createdByMember' | 'createdByApiKey'> & {
  createdBy: ApiKeyCreator | null;
};

export type NewApiKey = Pick<
  ApiKey,
  'tenantId' | 'organizationId' | 'name' | 'prefix' | 'hash' | 'role' | 'createdByMemberId' | 'createdByApiKeyId'
>;

/** A key a cascade changed: revoked or capped with the member who created it. */
export interface CascadedKey {
  id: string;
  hash: Buffer;
  role: Role;
  name: string;
  prefix: string;
  organizationId: string | null;
}

const CASCADED = `id, hash, role, name, prefix, organization_id AS "organizationId"`;

/** A live key as the guard resolves it, with its tenant's plan. */
export interface LiveApiKey {
  id: string;
  name: string;
  tenantId: string;
  organizationId: string | null;
  role: Role;
  plan: Plan;
}

/** The key's columns with its creator; `k` is the key, `m` the member who created it and `c` the key that did (both left joined). */
const COLUMNS_WITH_CREATOR = `k.id, k.tenant_id AS "tenantId", k.organization_id AS "organizationId", k.name, k.prefix, k.hash, k.role,
  k.created_by_member_id AS "createdByMemberId", k.created_by_api_key_id AS "createdByApiKeyId", k.last_used_at AS "lastUsedAt",
  k.revoked_at AS "revokedAt", k.created_at AS "createdAt",
  CASE WHEN m.id IS NOT NULL THEN json_build_object('type', 'member', 'id', m.id, 'name', m.email)
       WHEN c.id IS NOT NULL THEN json_build_object('type', 'api_key', 'id', c.id, 'name', c.name) END AS "createdBy"`;

const CREATORS = 'LEFT JOIN tenant_member m ON m.id = k.created_by_member_id LEFT JOIN api_key c ON c.id = k.created_by_api_key_id';

/**
 * The keys a member created, and the keys those keys created, and so on (a removed admin's key
 * must not live on through a key it made). The UPDATEs after it are wrapped in a CTE because
 * TypeORM reshapes the result of a bare UPDATE … RETURNING.
 */
const MADE_BY_MEMBER = `WITH RECURSIVE made(id) AS (
    SELECT id FROM api_key WHERE tenant_id = $1 AND created_by_member_id = $2
    UNION SELECT k.id FROM api_key k JOIN made ON k.created_by_api_key_id = made.id)`;

/** api_key: a tenant's and its organizations' keys, always looked up within their owner (but by the guard, by hash). */
@Injectable()
export class ApiKeyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** In the caller's transaction when `manager` is given (a tenant's first key is made with the tenant). */
  async insert(manager: EntityManager | null, key: NewApiKey): Promise<ApiKeyWithCreator> {
    const rows: ApiKeyWithCreator[] = await (manager ?? this.dataSource).query(
      `WITH k AS (
         INSERT INTO api_key (tenant_id, organization_id, name, prefix, hash, role, created_by_member_id, created_by_api_key_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *)
       SELECT ${COLUMNS_WITH_CREATOR} FROM k ${CREATORS}`,
      [key.tenantId, key.organizationId, key.name, key.prefix, key.hash, key.role, key.createdByMemberId, key.createdByApiKeyId],
    );
    return rows[0];
  }

  /** `limit + 1` keys of the owner after the cursor, oldest first, with who created them. */
  list(owner: ApiKeyOwner, page: PageQuery): Promise<ApiKeyWithCreator[]> {
    const params: unknown[] = [owner.tenantId];
    if (owner.organizationId) params.push(owner.organizationId);
    const organization = owner.organizationId ? 'k.organization_id = $2' : 'k.organization_id IS NULL';
    const { after, orderAndLimit } = keysetPage(page, params, 'oldest', 'k.');
    return this.dataSource.query(
      `SELECT ${COLUMNS_WITH_CREATOR} FROM api_key k ${CREATORS} WHERE k.tenant_id = $1 AND ${organization}${after} ${orderAndLimit}`,
      params,
    );
  }

  async find(owner: ApiKeyOwner, id: string): Promise<ApiKeyWithCreator | null> {
    const rows: ApiKeyWithCreator[] = await this.dataSource.query(
      `SELECT ${COLUMNS_WITH_CREATOR} FROM api_key k ${CREATORS} WHERE k.id = $1 AND k.tenant_id = $2 AND k.organization_id IS NOT DISTINCT FROM $3::uuid`,
      [id, owner.tenantId, owner.organizationId],
    );
    return rows[0] ?? null;
  }

  /** Revoking a revoked key changes nothing. */
  /** In the caller's transaction; false when the key was revoked already. */
  async revoke(manager: EntityManager, id: string, at: Date): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      'WITH revoked AS (UPDATE api_key SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id) SELECT id FROM revoked',
      [id, at],
    );
    return rows.length > 0;
  }

  /** Revokes the live keys a member created (transitively), in the caller's transaction. */
  revokeMadeBy(manager: EntityManager, tenantId: string, memberId: string, at: Date): Promise<CascadedKey[]> {
    return manager.query(
      `${MADE_BY_MEMBER},
       revoked AS (UPDATE api_key SET revoked_at = $3 WHERE id IN (SELECT id FROM made) AND revoked_at IS NULL RETURNING ${CASCADED})
       SELECT * FROM revoked`,
      [tenantId, memberId, at],
    );
  }

  /** Lowers the live keys a member created (transitively) to at most `role`, in the caller's transaction. */
  capMadeBy(manager: EntityManager, tenantId: string, memberId: string, role: Role): Promise<CascadedKey[]> {
    return manager.query(
      `${MADE_BY_MEMBER},
       capped AS (UPDATE api_key SET role = $3 WHERE id IN (SELECT id FROM made) AND revoked_at IS NULL AND role > $3::access_role RETURNING ${CASCADED})
       SELECT * FROM capped`,
      [tenantId, memberId, role],
    );
  }

  /** The unrevoked key of this SHA-256, with its tenant's plan. */
  async findLive(hash: Buffer): Promise<LiveApiKey | null> {
    const rows: LiveApiKey[] = await this.dataSource.query(
      `SELECT k.id, k.name, k.tenant_id AS "tenantId", k.organization_id AS "organizationId", k.role, t.plan
         FROM api_key k JOIN tenant t ON t.id = k.tenant_id
        WHERE k.hash = $1 AND k.revoked_at IS NULL`,
      [hash],
    );
    return rows[0] ?? null;
  }

  async recordUse(id: string, at: Date): Promise<void> {
    await this.dataSource.query('UPDATE api_key SET last_used_at = $2 WHERE id = $1', [id, at]);
  }
}
