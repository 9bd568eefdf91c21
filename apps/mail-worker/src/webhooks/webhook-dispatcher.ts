import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Clock, PeriodicTask, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { WebhookDeliveryRepository, WebhookEventRepository } from '@sesame/entities';
import { WebhookProducer } from '@sesame/queue';

/** Events turned into deliveries per pass. */
const BATCH = 200;
/** A delivery still pending this long after it was made may have lost its job with Redis: it is queued again (a no-op while the job exists). */
const REQUEUE_AFTER_MS = 60_000;

/**
 * Moves events from the outbox to the queue: every WEBHOOK_DISPATCH_INTERVAL_MS, claims the
 * undispatched events and makes their deliveries (one statement), then queues a job per delivery.
 * A crash between the two, or Redis losing its jobs, leaves pending deliveries without a job: each
 * pass also queues again the pending deliveries older than a minute. Nothing committed is lost.
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

  /** One pass: new events to deliveries to jobs, then the pending deliveries that may have lost theirs. */
  async dispatch(): Promise<void> {
    const now = this.clock.now();
    for (;;) {
      const { events, deliveryIds } = await this.events.dispatch(BATCH, now);
      await this.producer.enqueue(deliveryIds);
      if (events < BATCH) break;
    }
    await this.producer.enqueue(await this.deliveries.pendingSince(new Date(now.getTime() - REQUEUE_AFTER_MS), BATCH));
  }
}
