import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Clock, PeriodicTask, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { WebhookDeliveryRepository, WebhookDeliveryToQueue, WebhookEventRepository } from '@sesame/entities';
import { WebhookProducer } from '@sesame/queue';

/** Events turned into deliveries, and deliveries queued, per statement. */
const BATCH = 200;
/** A pending delivery queued this long ago may have lost its job with Redis: it is queued again (a no-op while the job exists). */
const REQUEUE_AFTER_MS = 60_000;

/**
 * Moves events from the outbox to the queue: every WEBHOOK_DISPATCH_INTERVAL_MS, claims the
 * undispatched events and makes their deliveries, recorded as queued (one statement), then adds
 * their jobs. A crash between the two, or Redis losing its jobs, leaves deliveries queued a minute
 * ago or more and still pending, which are queued again, a batch a pass, all of them in turn
 * (adding a job that exists does nothing). Recording "queued" with the deliveries, rather than
 * after their jobs, spares every delivery a second write of its row; a worker stopping at that
 * moment delays its deliveries by a minute. Deliveries never queued (redelivered, or of an endpoint
 * enabled again) are queued by the next pass. Nothing committed is lost.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly task = new PeriodicTask(
    () => this.dispatch(),
    (error) => this.logger.warn(`Webhook dispatch failed: ${error.message}`),
  );

  constructor(
    private readonly events: WebhookEventRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly producer: WebhookProducer,
    private readonly clock: Clock,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.webhooks.dispatchIntervalMs > 0) this.task.start(this.config.webhooks.dispatchIntervalMs);
  }

  /** Before Postgres and Redis close: no new pass, and the one under way finishes. */
  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  /**
   * One pass: new events to deliveries and their jobs, a batch at a time (a steady stream of events
   * never keeps its deliveries from the queue); then the deliveries never queued (redelivered, or
   * of an endpoint enabled again); then one batch of the deliveries that may have lost their job
   * (bounded: the pass stays short however many deliveries wait).
   */
  async dispatch(): Promise<void> {
    let claimed: number;
    do {
      const dispatched = await this.events.dispatch(BATCH, this.clock.now());
      await this.producer.enqueue(dispatched.deliveries);
      claimed = dispatched.events;
    } while (claimed === BATCH);
    const now = this.clock.now();
    let queued: number;
    do queued = await this.queue(await this.deliveries.unqueued(BATCH), now);
    while (queued === BATCH);
    await this.queue(await this.deliveries.stale(new Date(now.getTime() - REQUEUE_AFTER_MS), BATCH), now);
  }

  private async queue(deliveries: WebhookDeliveryToQueue[], now: Date): Promise<number> {
    await this.producer.enqueue(deliveries);
    await this.deliveries.markQueued(
      deliveries.map((delivery) => delivery.id),
      now,
    );
    return deliveries.length;
  }
}
