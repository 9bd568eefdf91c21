import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { decodeCursor, PageQuery } from '@sesame/common';
import { Tenant } from '@sesame/entities';
import { EntityManager, Repository } from 'typeorm';

@Injectable()
export class TenantRepository {
  constructor(@InjectRepository(Tenant) private readonly tenants: Repository<Tenant>) {}

  find(id: string): Promise<Tenant | null> {
    return this.tenants.findOneBy({ id });
  }

  list(page: PageQuery): Promise<Tenant[]> {
    const after = decodeCursor(page.cursor);
    const query = this.tenants.createQueryBuilder('tenant').orderBy('tenant.createdAt', 'ASC').addOrderBy('tenant.id', 'ASC').limit(page.limit + 1);
    if (after) query.where('(tenant.createdAt, tenant.id) > (:createdAt, :id)', after);
    return query.getMany();
  }

  insert(manager: EntityManager, tenant: Pick<Tenant, 'name' | 'plan'>): Promise<Tenant> {
    const repository = manager.getRepository(Tenant);
    return repository.save(repository.create(tenant));
  }

  save(tenant: Tenant): Promise<Tenant> {
    return this.tenants.save(tenant);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.tenants.manager.transaction(work);
  }
}
