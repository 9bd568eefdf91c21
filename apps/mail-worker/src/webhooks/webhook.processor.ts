import { InjectQueue, OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { BeforeApplicationShutdown, Logger } from '@nestjs/common';
import {
  closeQueue,
  DELIVER_WEBHOOK_JOB,
  DeliverWebhookJob,
  knownPayload,
  WEBHOOK_QUEUE,
  WebhookTenantBusy,
  WebhookTryRefused,
} from '@sesame/queue';
import type { Job, Queue } from 'bull';
import { TryOutcome, WebhookDeliveryService } from './webhook-delivery.service';

/** Deliveries one worker makes at once (they wait on the receivers). */
const CONCURRENCY = 8;

/**
 * Runs `deliver` jobs. A try that is not accepted fails the run, and Bull runs it again on the
 * schedule (the try's number is counted in Postgres); a run whose tenant has no slot free is no
 * try: it is put back for a second or two.
 */
@Processor(WEBHOOK_QUEUE)
export class WebhookProcessor implements BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookProcessor.name);

  constructor(
    private readonly deliveries: WebhookDeliveryService,
    @InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue<DeliverWebhookJob>,
  ) {}

  @Process({ name: DELIVER_WEBHOOK_JOB, concurrency: CONCURRENCY })
  async handle(job: Job<DeliverWebhookJob>): Promise<TryOutcome> {
    const payload = await knownPayload(job);
    const { outcome, tryNumber } = await this.deliveries.attempt(payload.deliveryId);
    if (outcome === 'busy') throw new WebhookTenantBusy(payload.deliveryId);
    if (outcome === 'retry') throw new WebhookTryRefused(payload.deliveryId, tryNumber);
    if (outcome === 'failed') this.logger.warn(`Webhook delivery ${payload.deliveryId} failed after ${tryNumber} tries`);
    return outcome;
  }

  /** A try the receiver refused, or a deferral, is expected; anything else (Postgres away, a bug) is logged. */
  @OnQueueFailed()
  onFailed(job: Job<DeliverWebhookJob>, error: Error): void {
    if (!(error instanceof WebhookTryRefused || error instanceof WebhookTenantBusy))
      this.logger.warn(`Webhook job ${job.id} failed (run ${job.attemptsMade}): ${error.message}`);
  }

  /** On SIGTERM: no new job; the tries under way finish (a killed worker's job is run again: the receiver may see it twice). */
  async beforeApplicationShutdown(): Promise<void> {
    await closeQueue(this.queue);
  }
}
