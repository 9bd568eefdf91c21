/** The queue of webhook deliveries, run by the worker. */
export const WEBHOOK_QUEUE = 'webhook';

/** The one job name on it: one try of one delivery (its retries are the job's). */
export const DELIVER_WEBHOOK_JOB = 'deliver';

/** Payload of a `deliver` job: the delivery's id. */
export interface DeliverWebhookJob {
  version: 1;
  deliveryId: string;
}

/** Runs of a job that were no try, at most (then the job fails and is removed, and the dispatcher queues the delivery again). */
export const MAX_WEBHOOK_DEFERRALS = 1_000;

/** Why a run of a `deliver` job failed, for its backoff: a try the receiver refused (the try's number), or a run deferred for the tenant's cap. */
export class WebhookTryRefused extends Error {
  constructor(
    deliveryId: string,
    readonly tryNumber: number,
  ) {
    super(`Webhook delivery ${deliveryId} was not accepted (try ${tryNumber}); it will be tried again`);
    this.name = 'WebhookTryRefused';
  }
}

export class WebhookTenantBusy extends Error {
  constructor(deliveryId: string) {
    super(`Webhook delivery ${deliveryId} waits: its tenant has as many deliveries under way as it may`);
    this.name = 'WebhookTenantBusy';
  }
}

/** A deferred run waits a second or two (spread, so that one tenant's many jobs do not come back together). */
export function deferralDelay(random = Math.random): number {
  return Math.round(1000 + random() * 1000);
}

/**
 * The wait after a failed run: the schedule's after a refused try (by the try's number, counted in
 * Postgres), a deferral's for a busy tenant, the first wait of the schedule after anything else
 * (Postgres away, a bug: no try was made).
 */
export function webhookRetryDelay(error: unknown, delaysMs: number[]): number {
  if (error instanceof WebhookTenantBusy) return deferralDelay();
  return webhookBackoff(error instanceof WebhookTryRefused ? error.tryNumber : 1, delaysMs);
}

/**
 * A delivery's job id: its id, and the redelivery's number after a redelivery. Adding a job whose id
 * exists does nothing, so a delivery is queued once however often it is added, and a redelivery
 * gets a job of its own.
 */
export function webhookJobId(delivery: { id: string; redeliveries: number }): string {
  return delivery.redeliveries === 0 ? delivery.id : `${delivery.id}:${delivery.redeliveries}`;
}

/** The backoff strategy's name in the queue's settings. */
export const WEBHOOK_BACKOFF = 'webhook-schedule';

/** The wait before try `attemptsMade + 1`: the schedule's, plus up to a tenth more at random so that retries of many deliveries spread out. */
export function webhookBackoff(attemptsMade: number, delaysMs: number[], random = Math.random): number {
  const base = delaysMs[Math.min(attemptsMade, delaysMs.length) - 1] ?? delaysMs[delaysMs.length - 1];
  return Math.round(base * (1 + random() / 10));
}
