import { Injectable, Logger } from '@nestjs/common';
import { Clock, Page, toPage } from '@sesame/common';
import { Principal } from '@sesame/guards';
import { actorOf } from '../access/actor';
import { AuditEventRepository } from './audit-event.repository';
import { AuditSpec } from './audited.decorator';
import { AuditEventQuery, AuditEventResponse } from './dto/audit-event.dto';

/** Field names that could hold a secret: never recorded, whatever a request sends. */
const SECRET_FIELD = /secret|password|token|^key$/i;

export interface AuditedChange {
  spec: AuditSpec;
  principal: Principal;
  tenantId: string;
  targetId: string | null;
  body: unknown;
  ip: string | null;
  requestId: string | null;
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
  async record(change: AuditedChange): Promise<void> {
    const actor = actorOf(change.principal);
    try {
      await this.events.insert({
        tenantId: change.tenantId,
        actorType: actor.type,
        actorId: actor.id,
        actorName: actor.name,
        action: change.spec.action,
        targetType: change.spec.targetType,
        targetId: change.targetId,
        changes: withoutSecrets(change.body),
        ip: change.ip,
        requestId: change.requestId,
        createdAt: this.clock.now(),
      });
    } catch (error) {
      this.logger.error(`Could not record the audit event ${change.spec.action} of request ${change.requestId}: ${(error as Error).message}`);
    }
  }

  async list(tenantId: string, query: AuditEventQuery): Promise<Page<AuditEventResponse>> {
    return toPage(await this.events.list(tenantId, query), query.limit, AuditEventResponse.from);
  }
}

/** The request body's fields, without any whose name could hold a secret; null when there is no body. */
function withoutSecrets(body: unknown): Record<string, unknown> | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const fields = Object.entries(body).filter(([name]) => !SECRET_FIELD.test(name));
  return fields.length > 0 ? Object.fromEntries(fields) : null;
}
