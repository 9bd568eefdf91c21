import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { PageQuery } from '@sesame/common';
import { keysetQueryBuilder, Organization, prepared, queryPrepared } from '@sesame/entities';
import { DataSource, Repository } from 'typeorm';

/** Every management request about an organization or its contents starts here, so it is a prepared statement. */
const FIND_ORGANIZATION = prepared(
  'find-organization',
  `SELECT id, tenant_id AS "tenantId", name, whitelist_domains AS "whitelistDomains", autologin,
          link_ttl_seconds AS "linkTtlSeconds", created_at AS "createdAt", updated_at AS "updatedAt"
     FROM organization WHERE tenant_id = $1 AND id = $2`,
);

/** Organizations, always looked up within one tenant. */
@Injectable()
export class OrganizationRepository {
  constructor(
    @InjectRepository(Organization) private readonly organizations: Repository<Organization>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async find(tenantId: string, id: string): Promise<Organization | null> {
    const rows = await queryPrepared<Organization>(this.dataSource, FIND_ORGANIZATION, [tenantId, id]);
    return rows[0] ?? null;
  }

  list(tenantId: string, page: PageQuery): Promise<Organization[]> {
    const query = this.organizations.createQueryBuilder('organization').where('organization.tenantId = :tenantId', { tenantId });
    return keysetQueryBuilder(query, page).getMany();
  }


  insert(organization: Pick<Organization, 'tenantId' | 'name'> & Partial<Organization>): Promise<Organization> {
    return this.organizations.save(this.organizations.create(organization));
  }

  save(organization: Organization): Promise<Organization> {
    return this.organizations.save(organization);
  }

  async delete(tenantId: string, id: string): Promise<void> {
    await this.organizations.delete({ tenantId, id });
  }
}
