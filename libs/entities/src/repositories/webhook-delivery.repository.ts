import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PageQuery } from '@sesame/common';
import { DataSource } from 'typeorm';
import { keysetPage } from './keyset-page';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** What one delivery attempt sends: the event, and where to. */
export interface WebhookDeliveryToSend {
  id: string;
  status: WebhookDeliveryStatus;
  endpointId: string;
  url: string;
  endpointEnabled: boolean;
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

/** A delivery as the management API lists it, with its attempts, newest first. */
export interface WebhookDeliveryView {
  id: string;
  eventId: string;
  type: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  createdAt: Date;
  finishedAt: Date | null;
  attemptLog: WebhookAttempt[];
}

/** webhook_delivery and webhook_attempt: one delivery per event and endpoint, and each try of it. */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async toSend(id: string): Promise<WebhookDeliveryToSend | null> {
    const rows: WebhookDeliveryToSend[] = await this.dataSource.query(
      `SELECT d.id, d.status, w.id AS "endpointId", w.url, w.enabled AS "endpointEnabled", e.id AS "eventId", e.type, e.payload,
              e.created_at AS "eventCreatedAt"
         FROM webhook_delivery d JOIN webhook_endpoint w ON w.id = d.endpoint_id JOIN webhook_event e ON e.id = d.event_id
        WHERE d.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Records a try and the delivery's status after it, in one statement. */
  async recordAttempt(id: string, attempt: WebhookAttempt, status: WebhookDeliveryStatus): Promise<void> {
    await this.dataSource.query(
      `WITH attempt AS (
         INSERT INTO webhook_attempt (delivery_id, attempted_at, duration_ms, response_status, response_excerpt, error)
         VALUES ($1, $2, $3, $4, $5, $6))
       UPDATE webhook_delivery SET attempts = attempts + 1, status = $7::webhook_delivery_status,
              finished_at = CASE WHEN $7::text = 'pending' THEN NULL ELSE $2::timestamptz END
        WHERE id = $1`,
      [id, attempt.attemptedAt, attempt.durationMs, attempt.responseStatus, attempt.responseExcerpt, attempt.error, status],
    );
  }

  /** Pending deliveries made before `before` (their jobs may have been lost with Redis), oldest first. */
  async pendingSince(before: Date, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM webhook_delivery WHERE status = 'pending' AND created_at < $1 ORDER BY created_at LIMIT $2`,
      [before, limit],
    );
    return rows.map((row) => row.id);
  }

  /** The endpoint's deliveries, newest first, with their attempts. */
  async listForEndpoint(endpointId: string, page: PageQuery): Promise<WebhookDeliveryView[]> {
    const params: unknown[] = [endpointId];
    const { after, orderAndLimit } = keysetPage(page, params, 'newest', 'd.');
    const rows: (Omit<WebhookDeliveryView, 'attemptLog'> & {
      attemptLog: (Omit<WebhookAttempt, 'attemptedAt'> & { attemptedAt: string })[];
    })[] = await this.dataSource.query(
      `SELECT d.id, d.event_id AS "eventId", e.type, d.status, d.attempts, d.created_at AS "createdAt", d.finished_at AS "finishedAt",
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
