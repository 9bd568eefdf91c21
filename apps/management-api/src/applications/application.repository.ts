import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PageQuery } from '@sesame/common';
import { Application, keysetPage } from '@sesame/entities';
import { Repository } from 'typeorm';

/** Applications, always looked up within one organization. */
@Injectable()
export class ApplicationRepository {
  constructor(@InjectRepository(Application) private readonly applications: Repository<Application>) {}

  find(organizationId: string, id: string): Promise<Application | null> {
    return this.applications.findOneBy({ organizationId, id });
  }

  list(organizationId: string, page: PageQuery): Promise<Application[]> {
    const query = this.applications.createQueryBuilder('application').where('application.organizationId = :organizationId', { organizationId });
    return keysetPage(query, page).getMany();
  }


  insert(application: Omit<Application, 'id' | 'createdAt' | 'updatedAt'>): Promise<Application> {
    return this.applications.save(this.applications.create(application));
  }

  save(application: Application): Promise<Application> {
    return this.applications.save(application);
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.applications.delete({ organizationId, id });
  }
}
