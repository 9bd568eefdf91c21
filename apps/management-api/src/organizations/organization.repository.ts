import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { decodeCursor, PageQuery } from '@sesame/common';
import { Organization } from '@sesame/entities';
import { Repository } from 'typeorm';

/** Organizations, always looked up within one tenant. */
@Injectable()
export class OrganizationRepository {
  constructor(@InjectRepository(Organization) private readonly organizations: Repository<Organization>) {}

  find(tenantId: string, id: string): Promise<Organization | null> {
    return this.organizations.findOneBy({ tenantId, id });
  }

  list(tenantId: string, page: PageQuery): Promise<Organization[]> {
    const after = decodeCursor(page.cursor);
    const query = this.organizations
      .createQueryBuilder('organization')
      .where('organization.tenantId = :tenantId', { tenantId })
      .orderBy('organization.createdAt', 'ASC')
      .addOrderBy('organization.id', 'ASC')
      .limit(page.limit + 1);
    if (after) query.andWhere('(organization.createdAt, organization.id) > (:createdAt, :id)', after);
    return query.getMany();
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
