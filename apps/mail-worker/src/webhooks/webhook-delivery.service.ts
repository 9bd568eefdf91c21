import { Injectable } from '@nestjs/common';
import { Clock, webhookBody, webhookHeaders } from '@sesame/common';
import { WebhookDeliveryRepository, WebhookDeliveryStatus, WebhookEndpointRepository } from '@sesame/entities';
import { WebhookSender } from './webhook-sender';

export type TryOutcome = 'succeeded' | 'retry' | 'failed' | 'skipped';

/**
 * One try of one delivery. The body and `webhook-id` are the event's, the same on every try (so a
 * receiver can deduplicate); the timestamp is the try's. A 2xx answer delivers it; anything else
 * is retried until the last try, then the delivery has failed.
 */
@Injectable()
export class WebhookDeliveryService {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
  ) {}

  async attempt(deliveryId: string, lastTry: boolean): Promise<TryOutcome> {
    const delivery = await this.deliveries.toSend(deliveryId);
    if (!delivery || delivery.status !== 'pending' || !delivery.endpointEnabled) return 'skipped';
    const now = this.clock.now();
    const secrets = await this.endpoints.signingSecrets(delivery.endpointId, now);
    if (!secrets) return 'skipped';
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
    await this.deliveries.recordAttempt(
      deliveryId,
      {
        attemptedAt: now,
        durationMs: result.durationMs,
        responseStatus: result.status,
        responseExcerpt: result.excerpt,
        error: result.error,
      },
      status,
    );
    return delivered ? 'succeeded' : lastTry ? 'failed' : 'retry';
  }
}
