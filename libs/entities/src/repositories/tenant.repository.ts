import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PageQuery } from '@sesame/common';
import { DataSource, EntityManager } from 'typeorm';
import { Tenant } from '../entities/tenant.entity';
import { keysetPage } from './keyset-page';

export type NewTenant = Pick<Tenant, 'name' | 'plan'> & Partial<Pick<Tenant, 'system'>>;

const COLUMNS = `id, name, plan, system, created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Any number: the advisory lock that makes concurrent set-ups of the system tenant take turns. */
const SYSTEM_SETUP_LOCK = 7_133_017;

/** tenant: the system tenant (the console's own) is never found, listed or deleted here; only findSystem() sees it. */
@Injectable()
export class TenantRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(id: string): Promise<Tenant | null> {
    const rows: Tenant[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM tenant WHERE id = $1 AND NOT system`, [id]);
    return rows[0] ?? null;
  }

  list(page: PageQuery): Promise<Tenant[]> {
    const params: unknown[] = [];
    const { after, orderAndLimit } = keysetPage(page, params);
    return this.dataSource.query(`SELECT ${COLUMNS} FROM tenant WHERE NOT system${after} ${orderAndLimit}`, params);
  }

  async findSystem(manager: EntityManager): Promise<Tenant | null> {
    const rows: Tenant[] = await manager.query(`SELECT ${COLUMNS} FROM tenant WHERE system`);
    return rows[0] ?? null;
  }

  /** In the caller's transaction (a tenant is made with its first key and owner). */
  async insert(manager: EntityManager, tenant: NewTenant): Promise<Tenant> {
    const rows: Tenant[] = await manager.query(`INSERT INTO tenant (name, plan, system) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`, [
      tenant.name,
      tenant.plan,
      tenant.system ?? false,
    ]);
    return rows[0];
  }

  /** Writes the tenant's name and plan; updated_at moves only when one of them changes. */
  async update(tenant: Tenant): Promise<Tenant> {
    const rows: Tenant[] = await this.dataSource.query(
      `WITH updated AS (
         UPDATE tenant SET name = $2, plan = $3,
                updated_at = CASE WHEN (name, plan) IS DISTINCT FROM ($2::varchar, $3::tenant_plan) THEN now() ELSE updated_at END
          WHERE id = $1 RETURNING ${COLUMNS})
       SELECT * FROM updated`,
      [tenant.id, tenant.name, tenant.plan],
    );
    return rows[0] ?? tenant;
  }

  async delete(id: string): Promise<void> {
    await this.dataSource.query('DELETE FROM tenant WHERE id = $1 AND NOT system', [id]);
  }

  /**
   * Runs the system tenant's set-up with a session advisory lock held, so concurrent set-ups take
   * turns. The lock sits on a connection of its own; `work` gets the data source's manager, so its
   * statements run (and commit) one by one, and a run cut short leaves what it made for the next.
   */
  async whileSettingUpSystem<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const lock = this.dataSource.createQueryRunner();
    await lock.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [SYSTEM_SETUP_LOCK]);
      return await work(this.dataSource.manager);
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [SYSTEM_SETUP_LOCK]).catch(() => undefined);
      await lock.release();
    }
  }
}
