import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PageQuery } from '@sesame/common';
import { keysetPage, Tenant } from '@sesame/entities';
import { EntityManager, Repository } from 'typeorm';

@Injectable()
export class TenantRepository {
  constructor(@InjectRepository(Tenant) private readonly tenants: Repository<Tenant>) {}

  find(id: string): Promise<Tenant | null> {
    return this.tenants.findOneBy({ id });
  }

  list(page: PageQuery): Promise<Tenant[]> {
    return keysetPage(this.tenants.createQueryBuilder('tenant'), page).getMany();
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
