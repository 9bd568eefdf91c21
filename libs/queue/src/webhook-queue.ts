/** The queue of webhook deliveries, run by the worker. */
export const WEBHOOK_QUEUE = 'webhook';

/** The one job name on it: one try of one delivery (its retries are the job's). */
export const DELIVER_WEBHOOK_JOB = 'deliver';

/** Payload of a `deliver` job: the delivery's id. */
export interface DeliverWebhookJob {
  version: 1;
  deliveryId: string;
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
