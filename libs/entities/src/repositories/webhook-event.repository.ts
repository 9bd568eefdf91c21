import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { deleteRows } from './batch-delete';
import type { WebhookDeliveryToQueue } from './webhook-delivery.repository';

/** An event to report to the tenant's webhook endpoints, written in the transaction of the change it reports. */
export interface NewWebhookEvent {
  type: string;
  /** The organization it happened in (its tenant is looked up), or the tenant for tenant-wide events. */
  scope: { organizationId: string } | { tenantId: string };
  /** What the receiver gets as `data`. */
  data: Record<string, unknown>;
  /** Only this endpoint (a test ping), whatever event types it chose. */
  endpointId?: string;
}

/** What one dispatch did: the events it claimed, and the deliveries it made, to be queued (they are recorded as queued already). */
export interface DispatchedEvents {
  events: number;
  deliveries: WebhookDeliveryToQueue[];
}

/** webhook_event: the outbox. Nothing rolled back is ever in it, and nothing committed is missed. */
@Injectable()
export class WebhookEventRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** In the caller's transaction: the events exist exactly when the change does. One statement however many; their ids in order. */
  async record(manager: EntityManager, ...events: NewWebhookEvent[]): Promise<string[]> {
    const params: unknown[] = [];
    const rows = events.map((event) => {
      const organizationId = 'organizationId' in event.scope ? event.scope.organizationId : null;
      const tenantId = 'tenantId' in event.scope ? event.scope.tenantId : null;
      const at = params.push(tenantId, organizationId, event.endpointId ?? null, event.type, event.data) - 5;
      const $ = (i: number) => `$${at + i}`;
      return `(COALESCE(${$(1)}::uuid, (SELECT tenant_id FROM organization WHERE id = ${$(2)}::uuid)), ${$(2)}::uuid, ${$(3)}::uuid, ${$(4)}, ${$(5)}::jsonb)`;
    });
    const inserted: { id: string }[] = await manager.query(
      `INSERT INTO webhook_event (tenant_id, organization_id, endpoint_id, type, payload) VALUES ${rows.join(', ')} RETURNING id`,
      params,
    );
    return inserted.map((row) => row.id);
  }

  /** Retention: one batch of events made before `before`, with their deliveries and attempts (which cascade). */
  deleteCreatedBefore(before: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM webhook_event WHERE id IN (
         SELECT id FROM webhook_event WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
  }

  /** Takes back an event no worker has taken yet (in the caller's transaction); false when it is already on its way. */
  async withdraw(manager: EntityManager, id: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      'WITH gone AS (DELETE FROM webhook_event WHERE id = $1 AND dispatched_at IS NULL RETURNING id) SELECT id FROM gone',
      [id],
    );
    return rows.length > 0;
  }

  /**
   * Claims up to `limit` undispatched events, oldest first, and makes one delivery per event and
   * endpoint that takes it (enabled, made before the event, of the tenant, of the event's organization or the whole
   * tenant's, subscribed to its type or to all; a targeted event, the test ping, its endpoint
   * only), in one statement: an event is dispatched exactly once, whichever workers run this at
   * the same time. Answers how many events it claimed and the deliveries it made, recorded as
   * queued at `now`: the caller queues them next (if it stops first, they are queued again as
   * stale a minute later).
   */
  async dispatch(limit: number, now: Date): Promise<DispatchedEvents> {
    const rows: DispatchedEvents[] = await this.dataSource.query(
      `WITH claimed AS (
         SELECT id, tenant_id, organization_id, endpoint_id, type, created_at FROM webhook_event
          WHERE dispatched_at IS NULL ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED),
       marked AS (
         UPDATE webhook_event e SET dispatched_at = $2 FROM claimed c WHERE e.id = c.id RETURNING e.id),
       delivered AS (
         INSERT INTO webhook_delivery (event_id, endpoint_id, created_at, queued_at)
         SELECT c.id, w.id, $2, $2 FROM claimed c
           JOIN webhook_endpoint w ON w.tenant_id = c.tenant_id AND w.enabled AND w.created_at <= c.created_at
            AND (CASE WHEN c.endpoint_id IS NOT NULL THEN w.id = c.endpoint_id
                      ELSE (w.organization_id IS NULL OR w.organization_id = c.organization_id)
                           AND (cardinality(w.event_types) = 0 OR c.type = ANY(w.event_types)) END)
         ON CONFLICT DO NOTHING RETURNING id, redeliveries)
       SELECT (SELECT count(*)::int FROM marked) AS events,
              COALESCE((SELECT json_agg(json_build_object('id', id, 'redeliveries', redeliveries)) FROM delivered), '[]') AS deliveries`,
      [limit, now],
    );
    return rows[0];
  }
}
