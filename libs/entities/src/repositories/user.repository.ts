import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PageQuery } from '@sesame/common';
import { DataSource, EntityManager } from 'typeorm';
import { User } from '../entities/user.entity';
import { keysetPage } from './keyset-page';

const COLUMNS = `id, organization_id AS "organizationId", email, name, blocked, email_verified AS "emailVerified", last_login_at AS "lastLoginAt",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/** "user": an organization's end users, always looked up within one organization. */
@Injectable()
export class UserRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(organizationId: string, id: string): Promise<User | null> {
    const rows: User[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM "user" WHERE organization_id = $1 AND id = $2`, [
      organizationId,
      id,
    ]);
    return rows[0] ?? null;
  }

  /** The user, locked until the caller's transaction ends (a change reported by a webhook event is decided on what it locked). */
  async findForUpdate(manager: EntityManager, organizationId: string, id: string): Promise<User | null> {
    const rows: User[] = await manager.query(`SELECT ${COLUMNS} FROM "user" WHERE organization_id = $1 AND id = $2 FOR UPDATE`, [
      organizationId,
      id,
    ]);
    return rows[0] ?? null;
  }

  /** `limit + 1` users of the organization after the cursor, oldest first; only the one of `email` when given. */
  list(organizationId: string, page: PageQuery, email: string | null): Promise<User[]> {
    const params: unknown[] = [organizationId];
    let where = 'organization_id = $1';
    if (email !== null) {
      params.push(email);
      where += ' AND email = $2';
    }
    const { after, orderAndLimit } = keysetPage(page, params);
    return this.dataSource.query(`SELECT ${COLUMNS} FROM "user" WHERE ${where}${after} ${orderAndLimit}`, params);
  }

  /** Inserts unless the address is taken in the organization; null when it is. */
  async insertIfAbsent(user: Pick<User, 'organizationId' | 'email' | 'name' | 'blocked'>): Promise<User | null> {
    const rows: User[] = await this.dataSource.query(
      `INSERT INTO "user" (organization_id, email, name, blocked) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [user.organizationId, user.email, user.name, user.blocked],
    );
    return rows[0] ?? null;
  }

  /** Sets the user's name and blocked flag; updated_at moves only when one of them changes. */
  async update(user: User, manager: EntityManager = this.dataSource.manager): Promise<User> {
    const rows: User[] = await manager.query(
      `WITH updated AS (
         UPDATE "user" SET name = $3, blocked = $4,
                updated_at = CASE WHEN (name, blocked) IS DISTINCT FROM ($3::varchar, $4::boolean) THEN now() ELSE updated_at END
          WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS})
       SELECT * FROM updated`,
      [user.organizationId, user.id, user.name, user.blocked],
    );
    return rows[0] ?? user;
  }

  async delete(organizationId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query('DELETE FROM "user" WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  }

  /**
   * A completed login: creates the user of the address, or marks the existing one verified and
   * signed in at `now`. Null when the user is blocked. In the caller's transaction.
   */
  async upsertSignedIn(
    manager: EntityManager,
    organizationId: string,
    email: string,
    now: Date,
  ): Promise<{ id: string; created: boolean } | null> {
    // xmax is 0 on a row this statement inserted, and set on one it updated.
    const users: { id: string; created: boolean }[] = await manager.query(
      `INSERT INTO "user" (organization_id, email, email_verified, last_login_at) VALUES ($1, $2, true, $3)
       ON CONFLICT (organization_id, email) DO UPDATE SET email_verified = true, last_login_at = $3, updated_at = $3
         WHERE NOT "user".blocked
       RETURNING id, (xmax = 0) AS created`,
      [organizationId, email, now],
    );
    return users[0] ?? null;
  }
}
