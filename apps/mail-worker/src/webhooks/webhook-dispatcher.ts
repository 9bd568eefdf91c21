import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Clock, PeriodicTask, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { WebhookDeliveryRepository, WebhookEventRepository } from '@sesame/entities';
import { WebhookProducer } from '@sesame/queue';

/** Events turned into deliveries, and deliveries queued, per statement. */
const BATCH = 200;
/** A pending delivery queued this long ago may have lost its job with Redis: it is queued again (a no-op while the job exists). */
const REQUEUE_AFTER_MS = 60_000;

/**
 * Moves events from the outbox to the queue: every WEBHOOK_DISPATCH_INTERVAL_MS, claims the
 * undispatched events and makes their deliveries (one statement), then queues a job per delivery
 * that has none and records when. A crash between the two leaves deliveries never queued, which
 * the next pass queues; Redis losing its jobs leaves deliveries queued long ago, which are queued
 * again once a minute (all of them in turn, however many). Nothing committed is lost.
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

  /** One pass: new events to deliveries, then jobs for the deliveries without one (or that may have lost theirs). */
  async dispatch(): Promise<void> {
    const now = this.clock.now();
    let claimed: number;
    do claimed = await this.events.dispatch(BATCH, now);
    while (claimed === BATCH);
    const staleBefore = new Date(now.getTime() - REQUEUE_AFTER_MS);
    for (;;) {
      const deliveries = await this.deliveries.toQueue(staleBefore, BATCH);
      await this.producer.enqueue(deliveries);
      await this.deliveries.markQueued(
        deliveries.map((delivery) => delivery.id),
        now,
      );
      if (deliveries.length < BATCH) break;
    }
  }
}
