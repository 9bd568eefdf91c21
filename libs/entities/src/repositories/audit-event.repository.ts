import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PageQuery } from '@sesame/common';
import { DataSource, EntityManager } from 'typeorm';
import { AuditActorType, AuditEvent } from '../entities/audit-event.entity';
import { deleteRows } from './batch-delete';
import { keysetPage } from './keyset-page';

export type NewAuditEvent = Omit<AuditEvent, 'id' | 'createdAt' | 'tenant'> & { createdAt: Date };

/** What a list of audit events may be narrowed to. */
export interface AuditEventFilter {
  actorId?: string;
  actorType?: AuditActorType;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
}

const COLUMNS = `id, tenant_id AS "tenantId", actor_type AS "actorType", actor_id AS "actorId", actor_name AS "actorName", action,
  target_type AS "targetType", target_id AS "targetId", changes, ip, request_id AS "requestId", created_at AS "createdAt"`;

/** audit_event: the management API's record of changes, always within one tenant, and its retention. */
@Injectable()
export class AuditEventRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** In the caller's transaction when `manager` is given. */
  async insert(manager: EntityManager | null, event: NewAuditEvent): Promise<void> {
    await (manager ?? this.dataSource).query(
      `INSERT INTO audit_event (tenant_id, actor_type, actor_id, actor_name, action, target_type, target_id, changes, ip, request_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        event.tenantId,
        event.actorType,
        event.actorId,
        event.actorName,
        event.action,
        event.targetType,
        event.targetId,
        event.changes,
        event.ip,
        event.requestId,
        event.createdAt,
      ],
    );
  }

  /** `limit + 1` events of the tenant after the cursor, newest first, filtered as asked. */
  list(tenantId: string, filter: AuditEventFilter, page: PageQuery): Promise<AuditEvent[]> {
    const params: unknown[] = [tenantId];
    let where = 'tenant_id = $1';
    const and = (condition: string, value: unknown) => {
      params.push(value);
      where += ` AND ${condition} $${params.length}`;
    };
    if (filter.actorId) and('actor_id =', filter.actorId);
    if (filter.actorType) and('actor_type =', filter.actorType);
    if (filter.action) and('action =', filter.action);
    if (filter.targetType) and('target_type =', filter.targetType);
    if (filter.targetId) and('target_id =', filter.targetId);
    if (filter.from) and('created_at >=', new Date(filter.from));
    if (filter.to) and('created_at <', new Date(filter.to));
    const { after, orderAndLimit } = keysetPage(page, params, 'newest');
    return this.dataSource.query(`SELECT ${COLUMNS} FROM audit_event WHERE ${where}${after} ${orderAndLimit}`, params);
  }

  /** Retention: events recorded before `before`, at most `limit` of them. */
  deleteCreatedBefore(before: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM audit_event WHERE id IN (
         SELECT id FROM audit_event WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
  }
}
