import { Injectable } from '@nestjs/common';
import { notFound, Page, problem, toPage, validEmail } from '@sesame/common';
import { Transactions, User, UserRepository, WebhookEventRepository } from '@sesame/entities';
import { EntityManager } from 'typeorm';
import { CreateUserDto, UpdateUserDto, UserQuery, UserResponse } from './dto/user.dto';

/** Users of one organization; the caller has already checked the organization is in reach. */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UserRepository,
    private readonly transactions: Transactions,
    private readonly webhookEvents: WebhookEventRepository,
  ) {}

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

  /** Blocking or unblocking is reported (`user.blocked`, `user.unblocked`) in the change's transaction. */
  async update(organizationId: string, id: string, input: UpdateUserDto): Promise<UserResponse> {
    return this.transactions.run(async (manager) => {
      const user = await this.lockedOrFail(manager, organizationId, id);
      const wasBlocked = user.blocked;
      if (input.name !== undefined) user.name = input.name;
      if (input.blocked !== undefined) user.blocked = input.blocked;
      const saved = await this.users.update(user, manager);
      if (saved.blocked !== wasBlocked) await this.report(manager, saved.blocked ? 'user.blocked' : 'user.unblocked', saved);
      return UserResponse.from(saved);
    });
  }

  /** Reported (`user.deleted`) in the change's transaction. */
  async delete(organizationId: string, id: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      const user = await this.lockedOrFail(manager, organizationId, id);
      await this.users.delete(organizationId, id, manager);
      await this.report(manager, 'user.deleted', user);
    });
  }

  private report(manager: EntityManager, type: string, user: User): Promise<string[]> {
    const subject = { id: user.id, email: user.email, organizationId: user.organizationId };
    return this.webhookEvents.record(manager, { type, scope: { organizationId: user.organizationId }, data: { user: subject } });
  }

  private async lockedOrFail(manager: EntityManager, organizationId: string, id: string): Promise<User> {
    const user = await this.users.findForUpdate(manager, organizationId, id);
    if (!user) throw notFound('user');
    return user;
  }

  private async findOrFail(organizationId: string, id: string): Promise<User> {
    const user = await this.users.find(organizationId, id);
    if (!user) throw notFound('user');
    return user;
  }
}
