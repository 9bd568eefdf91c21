import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PageQuery } from '@sesame/common';
import { DataSource, EntityManager } from 'typeorm';
import { keysetPage } from './keyset-page';
import type { SealedSigningSecrets } from './webhook-endpoint.repository';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** What one delivery attempt sends: the event, and where to. */
export interface WebhookDeliveryToSend {
  id: string;
  status: WebhookDeliveryStatus;
  endpointId: string;
  url: string;
  endpointEnabled: boolean;
  /** Whether the endpoint's last tries failed (a try that succeeds ends the streak). */
  endpointFailing: boolean;
  endpointSecrets: SealedSigningSecrets;
  tenantId: string;
  /** The number of the next try in this round (from 1; a redelivery starts a round). */
  tryNumber: number;
  eventId: string;
  type: string;
  payload: Record<string, unknown>;
  eventCreatedAt: Date;
}

/** One try: when, how long, and what came back (or why nothing did). */
export interface WebhookAttempt {
  attemptedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  /** The first bytes of the answer. */
  responseExcerpt: string | null;
  error: string | null;
}

/** What redelivering an event did: its finished deliveries made pending again, and how many were still pending. */
export interface EventRedelivery {
  redelivered: (WebhookDeliveryToQueue & { endpointId: string })[];
  stillPending: number;
}

/** A try to record: its delivery, what happened, and the delivery's status after it. */
export interface RecordedTry {
  deliveryId: string;
  attempt: WebhookAttempt;
  status: WebhookDeliveryStatus;
}

/** A delivery as the management API lists it, with its attempts, newest first. */
export interface WebhookDeliveryView {
  id: string;
  eventId: string;
  type: string;
  eventCreatedAt: Date;
  payload: Record<string, unknown>;
  status: WebhookDeliveryStatus;
  attempts: number;
  createdAt: Date;
  finishedAt: Date | null;
  attemptLog: WebhookAttempt[];
}

/** A delivery that needs a job: its id and how often it was redelivered (the job id tells them apart). */
export interface WebhookDeliveryToQueue {
  id: string;
  redeliveries: number;
}

/** What a redelivery found: the delivery made pending again, one still pending (nothing to do), or none. */
export type Redelivery = WebhookDeliveryToQueue | 'pending' | null;

/** webhook_delivery and webhook_attempt: one delivery per event and endpoint, and each try of it. */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The deliveries to send, by id (those gone are missing), each with its endpoint and event. */
  async toSend(ids: string[]): Promise<Map<string, WebhookDeliveryToSend>> {
    const rows: (Omit<WebhookDeliveryToSend, 'endpointSecrets'> & {
      secret: string;
      previousSecret: string | null;
      previousSecretExpiresAt: Date | null;
    })[] = await this.dataSource.query(
      `SELECT d.id, d.status, w.id AS "endpointId", w.url, w.enabled AS "endpointEnabled", w.failing_since IS NOT NULL AS "endpointFailing",
              w.secret_encrypted AS secret, w.previous_secret_encrypted AS "previousSecret", w.previous_secret_expires_at AS "previousSecretExpiresAt",
              w.tenant_id AS "tenantId", d.attempts - d.round_start + 1 AS "tryNumber", e.id AS "eventId", e.type, e.payload, e.created_at AS "eventCreatedAt"
         FROM webhook_delivery d JOIN webhook_endpoint w ON w.id = d.endpoint_id JOIN webhook_event e ON e.id = d.event_id
        WHERE d.id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(
      rows.map(({ secret, previousSecret, previousSecretExpiresAt, ...delivery }) => [
        delivery.id,
        { ...delivery, endpointSecrets: { current: secret, previous: previousSecret, previousExpiresAt: previousSecretExpiresAt } },
      ]),
    );
  }

  /** Records tries and each delivery's status after its try, in one statement (in the transaction of `manager` when given). */
  async recordAttempts(manager: EntityManager | null, tries: RecordedTry[]): Promise<void> {
    await (manager ?? this.dataSource).query(
      `WITH tries AS (
         SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::int[], $4::int[], $5::varchar[], $6::varchar[], $7::webhook_delivery_status[])
                    AS t(delivery_id, attempted_at, duration_ms, response_status, response_excerpt, error, status)),
       attempt AS (
         INSERT INTO webhook_attempt (delivery_id, attempted_at, duration_ms, response_status, response_excerpt, error)
         SELECT delivery_id, attempted_at, duration_ms, response_status, response_excerpt, error FROM tries)
       UPDATE webhook_delivery d SET attempts = d.attempts + 1, status = t.status,
              finished_at = CASE WHEN t.status = 'pending' THEN NULL ELSE t.attempted_at END
         FROM tries t WHERE d.id = t.delivery_id`,
      [
        tries.map((one) => one.deliveryId),
        tries.map((one) => one.attempt.attemptedAt),
        tries.map((one) => one.attempt.durationMs),
        tries.map((one) => one.attempt.responseStatus),
        tries.map((one) => one.attempt.responseExcerpt),
        tries.map((one) => one.attempt.error),
        tries.map((one) => one.status),
      ],
    );
  }

  /** Pending deliveries never queued (new, redelivered, or of an endpoint enabled again), of enabled endpoints, oldest first. */
  unqueued(limit: number): Promise<WebhookDeliveryToQueue[]> {
    return this.dataSource.query(
      `SELECT d.id, d.redeliveries FROM webhook_delivery d JOIN webhook_endpoint w ON w.id = d.endpoint_id AND w.enabled
        WHERE d.status = 'pending' AND d.queued_at IS NULL ORDER BY d.created_at LIMIT $1`,
      [limit],
    );
  }

  /**
   * Pending deliveries of enabled endpoints queued before `staleBefore`, the longest ago first: their
   * job may have been lost with Redis (queuing it again is a no-op while it exists). Taken a batch at
   * a time, they all come round however many there are.
   */
  stale(staleBefore: Date, limit: number): Promise<WebhookDeliveryToQueue[]> {
    return this.dataSource.query(
      `SELECT d.id, d.redeliveries FROM webhook_delivery d JOIN webhook_endpoint w ON w.id = d.endpoint_id AND w.enabled
        WHERE d.status = 'pending' AND d.queued_at < $1 ORDER BY d.queued_at LIMIT $2`,
      [staleBefore, limit],
    );
  }

  async markQueued(ids: string[], at: Date): Promise<void> {
    if (ids.length > 0) await this.dataSource.query(`UPDATE webhook_delivery SET queued_at = $2 WHERE id = ANY($1::uuid[])`, [ids, at]);
  }

  /**
   * Makes a finished delivery of the endpoint pending again, to be queued as a new job with a fresh
   * schedule (the same event, so the same `webhook-id`). A delivery still pending is left alone.
   */
  async redeliver(endpointId: string, id: string): Promise<Redelivery> {
    return this.dataSource.transaction(async (manager) => {
      // Locked first: of two redeliveries at once, the second sees the first's pending delivery.
      const found: { status: WebhookDeliveryStatus }[] = await manager.query(
        'SELECT status FROM webhook_delivery WHERE id = $1 AND endpoint_id = $2 FOR UPDATE',
        [id, endpointId],
      );
      if (!found[0]) return null;
      if (found[0].status === 'pending') return 'pending';
      const rows: WebhookDeliveryToQueue[] = await manager.query(
        `WITH redelivered AS (
           UPDATE webhook_delivery SET status = 'pending', finished_at = NULL, queued_at = NULL, redeliveries = redeliveries + 1,
                  round_start = attempts
            WHERE id = $1 RETURNING id, redeliveries)
         SELECT * FROM redelivered`,
        [id],
      );
      return rows[0];
    });
  }

  /**
   * Makes every finished delivery of the tenant's event pending again, each to be queued as a new
   * job with a fresh schedule; deliveries still pending are left to their schedule. Null when the
   * event is not the tenant's.
   */
  async redeliverEvent(tenantId: string, eventId: string): Promise<EventRedelivery | null> {
    return this.dataSource.transaction(async (manager) => {
      const event: unknown[] = await manager.query('SELECT 1 FROM webhook_event WHERE id = $1 AND tenant_id = $2', [eventId, tenantId]);
      if (event.length === 0) return null;
      // Locked first, as one delivery's redelivery locks its row: of two at once, the second sees the first's pending deliveries.
      const found: { status: WebhookDeliveryStatus }[] = await manager.query(
        'SELECT status FROM webhook_delivery WHERE event_id = $1 FOR UPDATE',
        [eventId],
      );
      const redelivered: (WebhookDeliveryToQueue & { endpointId: string })[] = await manager.query(
        // As a CTE: TypeORM answers a bare UPDATE … RETURNING with [rows, count].
        `WITH redelivered AS (
           UPDATE webhook_delivery SET status = 'pending', finished_at = NULL, queued_at = NULL, redeliveries = redeliveries + 1, round_start = attempts
            WHERE event_id = $1 AND status <> 'pending' RETURNING id, endpoint_id AS "endpointId", redeliveries)
         SELECT * FROM redelivered`,
        [eventId],
      );
      return { redelivered, stillPending: found.filter((row) => row.status === 'pending').length };
    });
  }

  /** The endpoint's deliveries, newest first, with their attempts. */
  async listForEndpoint(endpointId: string, page: PageQuery): Promise<WebhookDeliveryView[]> {
    const params: unknown[] = [endpointId];
    const { after, orderAndLimit } = keysetPage(page, params, 'newest', 'd.');
    const rows: (Omit<WebhookDeliveryView, 'attemptLog'> & {
      attemptLog: (Omit<WebhookAttempt, 'attemptedAt'> & { attemptedAt: string })[];
    })[] = await this.dataSource.query(
      `SELECT d.id, d.event_id AS "eventId", e.type, e.created_at AS "eventCreatedAt", e.payload, d.status, d.attempts, d.created_at AS "createdAt", d.finished_at AS "finishedAt",
              COALESCE((SELECT json_agg(json_build_object('attemptedAt', a.attempted_at, 'durationMs', a.duration_ms,
                                 'responseStatus', a.response_status, 'responseExcerpt', a.response_excerpt, 'error', a.error)
                                 ORDER BY a.attempted_at DESC)
                          FROM webhook_attempt a WHERE a.delivery_id = d.id), '[]') AS "attemptLog"
         FROM webhook_delivery d JOIN webhook_event e ON e.id = d.event_id
        WHERE d.endpoint_id = $1${after} ${orderAndLimit}`,
      params,
    );
    // The attempts come as JSON, their times as text.
    return rows.map((row) => ({
      ...row,
      attemptLog: row.attemptLog.map((attempt) => ({ ...attempt, attemptedAt: new Date(attempt.attemptedAt) })),
    }));
  }
}
