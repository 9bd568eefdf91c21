import { InjectQueue, OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { BeforeApplicationShutdown, Logger } from '@nestjs/common';
import { DELIVER_WEBHOOK_JOB, DeliverWebhookJob, knownPayload, WEBHOOK_QUEUE } from '@sesame/queue';
import type { Job, Queue } from 'bull';
import { TryOutcome, WebhookDeliveryService } from './webhook-delivery.service';

/** Deliveries one worker makes at once (they wait on the receivers). */
const CONCURRENCY = 8;

export class WebhookTryFailed extends Error {
  constructor(deliveryId: string) {
    super(`Webhook delivery ${deliveryId} was not accepted; it will be tried again`);
    this.name = 'WebhookTryFailed';
  }
}

/** Runs `deliver` jobs: a try that is not accepted fails the job, and Bull runs it again on the schedule. */
@Processor(WEBHOOK_QUEUE)
export class WebhookProcessor implements BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookProcessor.name);

  constructor(
    private readonly deliveries: WebhookDeliveryService,
    @InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue<DeliverWebhookJob>,
  ) {}

  @Process({ name: DELIVER_WEBHOOK_JOB, concurrency: CONCURRENCY })
  async handle(job: Job<DeliverWebhookJob>): Promise<TryOutcome> {
    const { deliveryId } = await knownPayload(job);
    const outcome = await this.deliveries.attempt(deliveryId, job.attemptsMade + 1 >= (job.opts.attempts ?? 1));
    if (outcome === 'retry') throw new WebhookTryFailed(deliveryId);
    if (outcome === 'failed') this.logger.warn(`Webhook delivery ${deliveryId} failed after ${job.attemptsMade + 1} tries`);
    return outcome;
  }

  /** A try the receiver refused is expected; anything else (Postgres away, a bug) is logged. */
  @OnQueueFailed()
  onFailed(job: Job<DeliverWebhookJob>, error: Error): void {
    if (!(error instanceof WebhookTryFailed)) this.logger.warn(`Webhook job ${job.id} failed (try ${job.attemptsMade}): ${error.message}`);
  }

  /** On SIGTERM: no new job; the tries under way finish (a killed worker's job is run again: the receiver may see it twice). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}
