import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PageQuery } from '@sesame/common';
import { keysetQueryBuilder, Tenant } from '@sesame/entities';
import { EntityManager, Repository } from 'typeorm';

/** Tenants. The system tenant (the console's own) is never found or listed here; only findSystem() sees it. */
@Injectable()
export class TenantRepository {
  constructor(@InjectRepository(Tenant) private readonly tenants: Repository<Tenant>) {}

  find(id: string): Promise<Tenant | null> {
    return this.tenants.findOneBy({ id, system: false });
  }

  list(page: PageQuery): Promise<Tenant[]> {
    return keysetQueryBuilder(this.tenants.createQueryBuilder('tenant').where('NOT tenant.system'), page).getMany();
  }

  findSystem(manager: EntityManager): Promise<Tenant | null> {
    return manager.getRepository(Tenant).findOneBy({ system: true });
  }

  insert(manager: EntityManager, tenant: Pick<Tenant, 'name' | 'plan'> & Partial<Pick<Tenant, 'system'>>): Promise<Tenant> {
    const repository = manager.getRepository(Tenant);
    return repository.save(repository.create(tenant));
  }

  save(tenant: Tenant): Promise<Tenant> {
    return this.tenants.save(tenant);
  }

  async delete(id: string): Promise<void> {
    await this.tenants.delete({ id, system: false });
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.tenants.manager.transaction(work);
  }
}
