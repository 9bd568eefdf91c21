import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { AuditEvent, keysetPage } from '@sesame/entities';
import { EntityManager, Repository } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AuditEventQuery } from './dto/audit-event.dto';

/** Audit events, always within one tenant, newest first. */
@Injectable()
export class AuditEventRepository {
  constructor(@InjectRepository(AuditEvent) private readonly events: Repository<AuditEvent>) {}

  /** In the caller's transaction when `manager` is given. */
  async insert(manager: EntityManager | null, event: Omit<AuditEvent, 'id' | 'createdAt'> & { createdAt: Date }): Promise<void> {
    // TypeORM's partial type does not accept a plain JSON object for a jsonb column.
    await (manager?.getRepository(AuditEvent) ?? this.events).insert(event as QueryDeepPartialEntity<AuditEvent>);
  }

  /** `limit + 1` events of the tenant after the cursor, newest first, filtered as asked. */
  list(tenantId: string, query: AuditEventQuery): Promise<AuditEvent[]> {
    const select = this.events.createQueryBuilder('event').where('event.tenantId = :tenantId', { tenantId });
    if (query.actorId) select.andWhere('event.actorId = :actorId', { actorId: query.actorId });
    if (query.actorType) select.andWhere('event.actorType = :actorType', { actorType: query.actorType });
    if (query.action) select.andWhere('event.action = :action', { action: query.action });
    if (query.targetType) select.andWhere('event.targetType = :targetType', { targetType: query.targetType });
    if (query.targetId) select.andWhere('event.targetId = :targetId', { targetId: query.targetId });
    if (query.from) select.andWhere('event.createdAt >= :from', { from: new Date(query.from) });
    if (query.to) select.andWhere('event.createdAt < :to', { to: new Date(query.to) });
    return keysetPage(select, query, 'newest').getMany();
  }
}
