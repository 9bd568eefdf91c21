import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock, LookupBatcher, SESAME_CONFIG, SesameConfig, webhookBody, webhookHeaders } from '@sesame/common';
import {
  AuditEventRepository,
  RecordedTry,
  Transactions,
  WebhookAttempt,
  WebhookDeliveryRepository,
  WebhookDeliveryStatus,
  WebhookDeliveryToSend,
  WebhookEndpointRepository,
} from '@sesame/entities';
import { MailProducer } from '@sesame/queue';
import { TenantSlots } from './tenant-slots';
import { WebhookSender } from './webhook-sender';

/** What a run of a delivery's job did: a try and its result, nothing to do, or nothing yet (its tenant's slots are taken). */
export type TryOutcome = 'succeeded' | 'retry' | 'failed' | 'skipped' | 'busy';

/** A run's outcome and the number of the try it made (or would have made), counted in Postgres. */
export interface TryResult {
  outcome: TryOutcome;
  tryNumber: number;
}

const DAY_MS = 24 * 3600 * 1000;
/** One statement at a time per kind, of at most 100 deliveries. */
const BATCHING = { maxInFlight: 1, maxBatch: 100 };
/** A failing streak goes on only while failed tries come at most this far apart (the schedule's longest wait is 14 h): a failure after a quiet week starts a new one. */
const STREAK_GAP_MS = DAY_MS;

/**
 * One try of one delivery. The body and `webhook-id` are the event's, the same on every try (so a
 * receiver can deduplicate); the timestamp is the try's. A 2xx answer delivers it; anything else
 * is retried until the last try, then the delivery has failed. A tenant has at most
 * WEBHOOK_TENANT_CONCURRENCY tries under way in this worker; an endpoint whose every try failed for
 * WEBHOOK_DISABLE_AFTER_DAYS is disabled, audited and its tenant's owners e-mailed.
 */
@Injectable()
export class WebhookDeliveryService {
  private readonly logger = new Logger(WebhookDeliveryService.name);
  private readonly slots: TenantSlots;
  // Concurrent tries read their deliveries, and record their success, a statement per batch (alone
  // while Postgres keeps up): a busy worker's round trips to Postgres were most of its work.
  private readonly reads = new LookupBatcher((ids: string[]) => this.deliveries.toSend(ids), BATCHING);
  /** Delivered tries waiting for the statement that records them, by delivery (a delivery has one try under way at a time). */
  private readonly unrecorded = new Map<string, RecordedTry>();
  private readonly recorded = new LookupBatcher<string, true>((ids) => this.recordDelivered(ids), BATCHING);

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly audit: AuditEventRepository,
    private readonly transactions: Transactions,
    private readonly sender: WebhookSender,
    private readonly mail: MailProducer,
    private readonly clock: Clock,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {
    this.slots = new TenantSlots(config.webhooks.tenantConcurrency);
  }

  /** The delivery's next try (the last is the one after the last wait of WEBHOOK_RETRY_DELAYS_MS), if it is due and its tenant has a slot. */
  async attempt(deliveryId: string): Promise<TryResult> {
    const delivery = await this.reads.load(deliveryId);
    if (!delivery || delivery.status !== 'pending' || !delivery.endpointEnabled) return { outcome: 'skipped', tryNumber: 0 };
    const result = (outcome: TryOutcome) => ({ outcome, tryNumber: delivery.tryNumber });
    const release = await this.slots.take(delivery.tenantId);
    if (!release) return result('busy');
    try {
      return result(await this.tryOnce(delivery, delivery.tryNumber > this.config.webhooks.retryDelaysMs.length));
    } finally {
      release();
    }
  }

  private async tryOnce(delivery: WebhookDeliveryToSend, lastTry: boolean): Promise<TryOutcome> {
    const now = this.clock.now();
    const secrets = this.endpoints.openSigningSecrets(delivery.endpointId, delivery.endpointSecrets, now);
    const body = webhookBody(delivery.type, delivery.eventCreatedAt, delivery.payload);
    const headers = webhookHeaders(
      [secrets.current, ...(secrets.previous ? [secrets.previous] : [])],
      delivery.eventId,
      Math.floor(now.getTime() / 1000),
      body,
    );
    const result = await this.sender.send(delivery.url, headers, body);
    const delivered = result.status !== null && result.status >= 200 && result.status < 300;
    const status: WebhookDeliveryStatus = delivered ? 'succeeded' : lastTry ? 'failed' : 'pending';
    const attempt = {
      attemptedAt: now,
      durationMs: result.durationMs,
      responseStatus: result.status,
      responseExcerpt: result.excerpt,
      error: result.error,
    };
    if (delivered && !delivery.endpointFailing) {
      // The common case, no transaction: the endpoint has no failing streak to end. (A streak that
      // began since the delivery was read is ended by the endpoint's next success.)
      this.unrecorded.set(delivery.id, { deliveryId: delivery.id, attempt, status });
      await this.recorded.load(delivery.id);
      return 'succeeded';
    }
    if (await this.recordWithStreak(delivery, attempt, status, delivered, now)) await this.tellOwners(delivery.endpointId, now);
    return delivered ? 'succeeded' : lastTry ? 'failed' : 'retry';
  }

  private async recordDelivered(ids: string[]): Promise<Map<string, true>> {
    const tries = ids.map((id) => this.unrecorded.get(id)!);
    for (const id of ids) this.unrecorded.delete(id);
    await this.deliveries.recordAttempts(null, tries);
    return new Map(ids.map((id) => [id, true]));
  }

  /** Records the try and its endpoint's failing streak; true when the streak disabled the endpoint (audited in the same transaction). */
  private recordWithStreak(
    delivery: WebhookDeliveryToSend,
    attempt: WebhookAttempt,
    status: WebhookDeliveryStatus,
    delivered: boolean,
    now: Date,
  ): Promise<boolean> {
    return this.transactions.run(async (manager) => {
      await this.deliveries.recordAttempts(manager, [{ deliveryId: delivery.id, attempt, status }]);
      const failingTooLong = new Date(now.getTime() - this.config.webhooks.disableAfterDays * DAY_MS);
      if (!(await this.endpoints.recordTry(manager, delivery.endpointId, delivered, now, failingTooLong, STREAK_GAP_MS))) return false;
      await this.audit.insert(manager, {
        tenantId: delivery.tenantId,
        actorType: 'sesame',
        actorId: null,
        actorName: 'Sesame',
        action: 'webhook_endpoint.disable',
        targetType: 'webhook_endpoint',
        targetId: delivery.endpointId,
        changes: { enabled: false, reason: 'failing', failingForDays: this.config.webhooks.disableAfterDays },
        ip: null,
        requestId: null,
        createdAt: now,
      });
      return true;
    });
  }

  /** The owners' e-mail; the endpoint is disabled whether or not it can be queued (the audit log and the console say so too). */
  private async tellOwners(endpointId: string, disabledAt: Date): Promise<void> {
    this.logger.warn(`Webhook endpoint ${endpointId} disabled: every try failed for ${this.config.webhooks.disableAfterDays} days`);
    try {
      await this.mail.enqueueEndpointDisabled(endpointId, disabledAt);
    } catch (error) {
      this.logger.warn(`The e-mail about disabled webhook endpoint ${endpointId} could not be queued: ${(error as Error).message}`);
    }
  }
}
