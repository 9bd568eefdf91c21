import { Injectable } from '@nestjs/common';
import { notFound, Page, problem, toPage, validEmail } from '@sesame/common';
import { User, UserRepository } from '@sesame/entities';
import { CreateUserDto, UpdateUserDto, UserQuery, UserResponse } from './dto/user.dto';

/** Users of one organization; the caller has already checked the organization is in reach. */
@Injectable()
export class UsersService {
  constructor(private readonly users: UserRepository) {}

  async list(organizationId: string, query: UserQuery): Promise<Page<UserResponse>> {
    const email = query.email === undefined ? null : validEmail(query.email);
    return toPage(await this.users.list(organizationId, query, email), query.limit, UserResponse.from);
  }

  async get(organizationId: string, id: string): Promise<UserResponse> {
    return UserResponse.from(await this.findOrFail(organizationId, id));
  }

  async create(organizationId: string, input: CreateUserDto): Promise<UserResponse> {
    const email = validEmail(input.email);
    const user = await this.users.insertIfAbsent({ organizationId, email, name: input.name ?? null, blocked: input.blocked ?? false });
    if (!user) throw problem('user_exists', 'A user with this e-mail address already exists in the organization');
    return UserResponse.from(user);
  }

  async update(organizationId: string, id: string, input: UpdateUserDto): Promise<UserResponse> {
    const user = await this.findOrFail(organizationId, id);
    if (input.name !== undefined) user.name = input.name;
    if (input.blocked !== undefined) user.blocked = input.blocked;
    return UserResponse.from(await this.users.update(user));
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.findOrFail(organizationId, id);
    await this.users.delete(organizationId, id);
  }

  private async findOrFail(organizationId: string, id: string): Promise<User> {
    const user = await this.users.find(organizationId, id);
    if (!user) throw notFound('user');
    return user;
  }
}
