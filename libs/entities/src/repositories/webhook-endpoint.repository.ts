import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PageQuery, SecretBox } from '@sesame/common';
import { DataSource, EntityManager } from 'typeorm';
import { keysetPage } from './keyset-page';

/** A tenant's webhook endpoint, without its secrets. */
export interface WebhookEndpoint {
  id: string;
  tenantId: string;
  /** Only this organization's events; null: the whole tenant's. */
  organizationId: string | null;
  url: string;
  description: string | null;
  /** The event types it receives; empty: all of them. */
  eventTypes: string[];
  enabled: boolean;
  /** Why Sesame disabled it ('failing': every try failed for WEBHOOK_DISABLE_AFTER_DAYS); null when it was not Sesame. */
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewWebhookEndpoint = Pick<
  WebhookEndpoint,
  'id' | 'tenantId' | 'organizationId' | 'url' | 'description' | 'eventTypes' | 'enabled'
>;
export type WebhookEndpointChanges = Partial<Pick<WebhookEndpoint, 'url' | 'description' | 'eventTypes' | 'enabled'>>;

/** The secrets that sign an endpoint's deliveries now: the current one, and the previous one during a rotation's overlap. */
export interface WebhookSigningSecrets {
  current: string;
  previous: string | null;
}

/** An endpoint's secrets as stored (sealed), read with a delivery to send. */
export interface SealedSigningSecrets {
  current: string;
  previous: string | null;
  previousExpiresAt: Date | null;
}

const COLUMNS = `id, tenant_id AS "tenantId", organization_id AS "organizationId", url, description, event_types AS "eventTypes", enabled,
  disabled_reason AS "disabledReason", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** An endpoint Sesame disabled, as its owners' e-mail tells it. */
export interface DisabledEndpointNotice {
  tenantId: string;
  tenantName: string;
  url: string;
  failingSince: Date;
}

/** A secret is sealed with SECRETS_KEY and bound to its endpoint, so a sealed value cannot be moved to another endpoint. */
const associatedData = (endpointId: string) => `webhook-endpoint:${endpointId}`;

/** webhook_endpoint: a tenant's endpoints, always looked up within one tenant (the worker's reads go by id). */
@Injectable()
export class WebhookEndpointRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly box: SecretBox,
  ) {}

  list(tenantId: string, page: PageQuery): Promise<WebhookEndpoint[]> {
    const params: unknown[] = [tenantId];
    const { after, orderAndLimit } = keysetPage(page, params);
    return this.dataSource.query(`SELECT ${COLUMNS} FROM webhook_endpoint WHERE tenant_id = $1${after} ${orderAndLimit}`, params);
  }

  async find(tenantId: string, id: string): Promise<WebhookEndpoint | null> {
    const rows: WebhookEndpoint[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM webhook_endpoint WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0] ?? null;
  }

  async countOf(tenantId: string): Promise<number> {
    const rows: { count: number }[] = await this.dataSource.query(
      'SELECT count(*)::int AS count FROM webhook_endpoint WHERE tenant_id = $1',
      [tenantId],
    );
    return rows[0].count;
  }

  async insert(endpoint: NewWebhookEndpoint, secret: string): Promise<WebhookEndpoint> {
    const rows: WebhookEndpoint[] = await this.dataSource.query(
      `INSERT INTO webhook_endpoint (id, tenant_id, organization_id, url, description, event_types, enabled, secret_encrypted)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [
        endpoint.id,
        endpoint.tenantId,
        endpoint.organizationId,
        endpoint.url,
        endpoint.description,
        endpoint.eventTypes,
        endpoint.enabled,
        this.box.encrypt(secret, associatedData(endpoint.id)),
      ],
    );
    return rows[0];
  }

  /**
   * Null when the tenant has no such endpoint. Setting `enabled` clears the reason Sesame disabled
   * it for; enabling a disabled one ends its failing streak and queues again the deliveries that
   * waited (re-enabling an enabled endpoint changes nothing: it cannot keep a dead one alive).
   */
  async update(tenantId: string, id: string, changes: WebhookEndpointChanges): Promise<WebhookEndpoint | null> {
    // UPDATE … RETURNING inside a CTE: TypeORM answers a bare UPDATE with [rows, count], not the rows.
    const rows: WebhookEndpoint[] = await this.dataSource.query(
      `WITH updated AS (
         UPDATE webhook_endpoint SET url = COALESCE($3, url), description = CASE WHEN $4::boolean THEN $5 ELSE description END,
                event_types = COALESCE($6, event_types), enabled = COALESCE($7, enabled), updated_at = now(),
                disabled_reason = CASE WHEN $7 IS NULL THEN disabled_reason END,
                failing_since = CASE WHEN $7 AND NOT enabled THEN NULL ELSE failing_since END
          WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}),
       requeued AS (
         UPDATE webhook_delivery SET queued_at = NULL
          WHERE $7 AND endpoint_id = (SELECT id FROM updated) AND status = 'pending'
            AND (SELECT NOT enabled FROM webhook_endpoint WHERE id = $2))
       SELECT * FROM updated`,
      [
        tenantId,
        id,
        changes.url ?? null,
        changes.description !== undefined,
        changes.description ?? null,
        changes.eventTypes ?? null,
        changes.enabled ?? null,
      ],
    );
    return rows[0] ?? null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      'WITH gone AS (DELETE FROM webhook_endpoint WHERE tenant_id = $1 AND id = $2 RETURNING id) SELECT id FROM gone',
      [tenantId, id],
    );
    return rows.length > 0;
  }

  /** The new secret signs from now on; the one it replaces signs too until `previousExpiresAt`. False when there is no such endpoint. */
  async rotateSecret(tenantId: string, id: string, secret: string, previousExpiresAt: Date): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH rotated AS (
         UPDATE webhook_endpoint SET previous_secret_encrypted = secret_encrypted, previous_secret_expires_at = $4, secret_encrypted = $3,
                updated_at = now()
          WHERE tenant_id = $1 AND id = $2 RETURNING id)
       SELECT id FROM rotated`,
      [tenantId, id, this.box.encrypt(secret, associatedData(id)), previousExpiresAt],
    );
    return rows.length > 0;
  }

  /**
   * Keeps the endpoint's failing streak after a try, in the caller's transaction: a delivered try
   * ends it; a refused one goes on with it while the previous failure is no older than `gap`, or
   * starts a new one. A refused try of a streak that began at `disableIfFailingSince` or earlier
   * disables the endpoint (reason `failing`). True when this try disabled it.
   */
  async recordTry(
    manager: EntityManager,
    id: string,
    delivered: boolean,
    now: Date,
    disableIfFailingSince: Date,
    gapMs: number,
  ): Promise<boolean> {
    const rows: { disabled: boolean }[] = await manager.query(
      `WITH target AS (
         SELECT id, enabled, CASE WHEN failing_since IS NOT NULL AND last_failure_at >= $5 THEN failing_since ELSE $3 END AS streak_start
           FROM webhook_endpoint WHERE id = $1 AND (NOT $2 OR failing_since IS NOT NULL) FOR UPDATE),
       judged AS (SELECT id, enabled, streak_start, NOT $2 AND enabled AND streak_start <= $4 AS disable FROM target),
       updated AS (
         UPDATE webhook_endpoint w SET failing_since = CASE WHEN $2 THEN NULL ELSE j.streak_start END,
                last_failure_at = CASE WHEN $2 THEN w.last_failure_at ELSE $3 END,
                enabled = w.enabled AND NOT j.disable,
                disabled_reason = CASE WHEN j.disable THEN 'failing' ELSE w.disabled_reason END,
                updated_at = CASE WHEN j.disable THEN $3 ELSE w.updated_at END
           FROM judged j WHERE w.id = j.id RETURNING j.disable)
       SELECT disable AS disabled FROM updated`,
      [id, delivered, now, disableIfFailingSince, new Date(now.getTime() - gapMs)],
    );
    return rows[0]?.disabled ?? false;
  }

  /** What the owners' e-mail says of an endpoint Sesame disabled; null when it is gone or enabled again. */
  async findDisabledNotice(id: string): Promise<DisabledEndpointNotice | null> {
    const rows: DisabledEndpointNotice[] = await this.dataSource.query(
      `SELECT w.tenant_id AS "tenantId", t.name AS "tenantName", w.url, w.failing_since AS "failingSince"
         FROM webhook_endpoint w JOIN tenant t ON t.id = w.tenant_id
        WHERE w.id = $1 AND NOT w.enabled AND w.disabled_reason = 'failing' AND w.failing_since IS NOT NULL`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** The secrets that sign the endpoint's deliveries at `now`, unsealed: the previous one only during its overlap. */
  openSigningSecrets(endpointId: string, sealed: SealedSigningSecrets, now: Date): WebhookSigningSecrets {
    const overlap = sealed.previous !== null && sealed.previousExpiresAt !== null && sealed.previousExpiresAt > now;
    return {
      current: this.box.decrypt(sealed.current, associatedData(endpointId)),
      previous: overlap ? this.box.decrypt(sealed.previous!, associatedData(endpointId)) : null,
    };
  }
}
