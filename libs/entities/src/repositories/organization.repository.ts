import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PageQuery } from '@sesame/common';
import { DataSource, EntityManager } from 'typeorm';
import { Organization } from '../entities/organization.entity';
import { keysetPage } from './keyset-page';
import { prepared, queryPrepared } from './prepared-query';

const COLUMNS = `id, tenant_id AS "tenantId", name, whitelist_domains AS "whitelistDomains", autologin,
  link_ttl_seconds AS "linkTtlSeconds", passkeys, created_at AS "createdAt", updated_at AS "updatedAt"`;

const FIND_ORGANIZATION = prepared('find-organization', `SELECT ${COLUMNS} FROM organization WHERE tenant_id = $1 AND id = $2`);

/** Every management request about an organization or its contents starts here (batched), so it is a prepared statement. */
const FIND_ORGANIZATIONS = prepared(
  'find-organizations',
  `SELECT ${COLUMNS} FROM organization WHERE (tenant_id, id) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[]))`,
);

/** An organization as a request names it: within one tenant. */
export interface OrganizationKey {
  tenantId: string;
  id: string;
}

export type NewOrganization = Pick<Organization, 'tenantId' | 'name'> &
  Partial<Pick<Organization, 'whitelistDomains' | 'autologin' | 'linkTtlSeconds' | 'passkeys'>>;

/** organization: a tenant's organizations, always looked up within one tenant. */
@Injectable()
export class OrganizationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(tenantId: string, id: string): Promise<Organization | null> {
    const rows = await queryPrepared<Organization>(this.dataSource, FIND_ORGANIZATION, [tenantId, id]);
    return rows[0] ?? null;
  }

  /** Several organizations in one statement, each within its own tenant (those not found are left out). */
  findMany(keys: OrganizationKey[]): Promise<Organization[]> {
    return queryPrepared<Organization>(this.dataSource, FIND_ORGANIZATIONS, [keys.map((key) => key.tenantId), keys.map((key) => key.id)]);
  }

  /** The tenant's oldest organization (the system tenant has one: the console's). */
  async findFirstOf(manager: EntityManager, tenantId: string): Promise<Organization | null> {
    const rows: Organization[] = await manager.query(
      `SELECT ${COLUMNS} FROM organization WHERE tenant_id = $1 ORDER BY created_at, id LIMIT 1`,
      [tenantId],
    );
    return rows[0] ?? null;
  }

  /** The tenant an organization belongs to; null when there is no such organization. */
  async findTenantId(id: string): Promise<string | null> {
    const rows: { tenant_id: string }[] = await this.dataSource.query('SELECT tenant_id FROM organization WHERE id = $1', [id]);
    return rows[0]?.tenant_id ?? null;
  }

  list(tenantId: string, page: PageQuery): Promise<Organization[]> {
    const params: unknown[] = [tenantId];
    const { after, orderAndLimit } = keysetPage(page, params);
    return this.dataSource.query(`SELECT ${COLUMNS} FROM organization WHERE tenant_id = $1${after} ${orderAndLimit}`, params);
  }

  /** Settings left out take their column's default. */
  async insert(manager: EntityManager, organization: NewOrganization): Promise<Organization> {
    const given: [string, unknown][] = [
      ['tenant_id', organization.tenantId],
      ['name', organization.name],
      ['whitelist_domains', organization.whitelistDomains],
      ['autologin', organization.autologin],
      ['link_ttl_seconds', organization.linkTtlSeconds],
      ['passkeys', organization.passkeys],
    ];
    const values = given.filter(([, value]) => value !== undefined);
    const rows: Organization[] = await manager.query(
      `INSERT INTO organization (${values.map(([column]) => column).join(', ')}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${COLUMNS}`,
      values.map(([, value]) => value),
    );
    return rows[0];
  }

  /** Writes the organization's settings; updated_at moves only when one of them changes. */
  async update(manager: EntityManager, organization: Organization): Promise<Organization> {
    const rows: Organization[] = await manager.query(
      `WITH updated AS (
         UPDATE organization SET name = $3, whitelist_domains = $4, autologin = $5, link_ttl_seconds = $6, passkeys = $7,
                updated_at = CASE WHEN (name, whitelist_domains, autologin, link_ttl_seconds, passkeys)
                                       IS DISTINCT FROM ($3::varchar, $4::text[], $5::boolean, $6::integer, $7::organization_passkeys)
                                  THEN now() ELSE updated_at END
          WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS})
       SELECT * FROM updated`,
      [
        organization.tenantId,
        organization.id,
        organization.name,
        organization.whitelistDomains,
        organization.autologin,
        organization.linkTtlSeconds,
        organization.passkeys,
      ],
    );
    return rows[0] ?? organization;
  }

  /** The organization as it was; null when it was gone already. */
  async delete(manager: EntityManager, tenantId: string, id: string): Promise<Organization | null> {
    // Through a CTE: the driver answers a bare DELETE … RETURNING with [rows, count].
    const rows: Organization[] = await manager.query(
      `WITH deleted AS (DELETE FROM organization WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}) SELECT * FROM deleted`,
      [tenantId, id],
    );
    return rows[0] ?? null;
  }
}
