import { Injectable, Logger } from '@nestjs/common';
import { Clock, Page, toPage } from '@sesame/common';
import { AuditEventRepository } from '@sesame/entities';
import { EntityManager } from 'typeorm';
import { actorOf } from '../access/actor';
import { AuditContext } from './audit-context';
import { AuditEventQuery, AuditEventResponse } from './dto/audit-event.dto';

/** Field names that could hold a secret: never recorded, whatever a request sends. */
const SECRET_FIELD = /secret|password|token|^key$/i;

/** One event: what changed, in which tenant. */
export interface AuditedChange {
  tenantId: string;
  action: string;
  targetType: string;
  targetId: string | null;
  /** The fields set (never a secret: see withoutSecrets). */
  changes: Record<string, unknown> | null;
}

@Injectable()
export class AuditService {
  private readonly logger = new Logger(AuditService.name);

  constructor(
    private readonly events: AuditEventRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Records a change that has been made. A failure is logged and not the request's: the change
   * itself has already been committed, and answering 500 would invite a retry that repeats it.
   */
  async record(context: AuditContext, change: AuditedChange): Promise<void> {
    try {
      await this.events.insert(null, this.event(context, change));
    } catch (error) {
      this.logger.error(`Could not record the audit event ${change.action} of request ${context.requestId}: ${(error as Error).message}`);
    }
  }

  /** Records a change inside the transaction that makes it (changes a change brings along: the keys of a removed member). */
  async recordIn(manager: EntityManager, context: AuditContext, change: AuditedChange): Promise<void> {
    await this.events.insert(manager, this.event(context, change));
  }

  private event(context: AuditContext, change: AuditedChange) {
    const actor = actorOf(context.principal);
    return {
      ...change,
      actorType: actor.type,
      actorId: actor.id,
      actorName: actor.name,
      ip: context.ip,
      requestId: context.requestId,
      createdAt: this.clock.now(),
    };
  }

  async list(tenantId: string, query: AuditEventQuery): Promise<Page<AuditEventResponse>> {
    return toPage(await this.events.list(tenantId, query, query), query.limit, AuditEventResponse.from);
  }
}

/** The request body's fields, without any whose name could hold a secret; null when there is no body. */
export function withoutSecrets(body: unknown): Record<string, unknown> | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const fields = Object.entries(body).filter(([name]) => !SECRET_FIELD.test(name));
  return fields.length > 0 ? Object.fromEntries(fields) : null;
}
