import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PageQuery } from '@sesame/common';
import { keysetQueryBuilder, User } from '@sesame/entities';
import { Repository } from 'typeorm';

/** Users, always looked up within one organization. */
@Injectable()
export class UserRepository {
  constructor(@InjectRepository(User) private readonly users: Repository<User>) {}

  find(organizationId: string, id: string): Promise<User | null> {
    return this.users.findOneBy({ organizationId, id });
  }

  list(organizationId: string, page: PageQuery, email: string | null): Promise<User[]> {
    const query = this.users.createQueryBuilder('user').where('user.organizationId = :organizationId', { organizationId });
    if (email !== null) query.andWhere('user.email = :email', { email });
    return keysetQueryBuilder(query, page).getMany();
  }


  /** Inserts unless the address is taken in the organization; null when it is. */
  async insertIfAbsent(user: Pick<User, 'organizationId' | 'email' | 'name' | 'blocked'>): Promise<User | null> {
    const result = await this.users
      .createQueryBuilder()
      .insert()
      .values(user)
      .orIgnore()
      .returning('*')
      .execute();
    const id = result.identifiers[0]?.id as string | undefined;
    return id ? this.find(user.organizationId, id) : null;
  }

  save(user: User): Promise<User> {
    return this.users.save(user);
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.users.delete({ organizationId, id });
  }
}
