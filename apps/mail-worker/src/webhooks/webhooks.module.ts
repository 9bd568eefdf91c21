import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { MailQueueModule, WebhookQueueModule } from '@sesame/queue';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookProcessor } from './webhook.processor';
import { WEBHOOK_RESOLVER, WebhookSender } from './webhook-sender';

/** Webhook delivery: the outbox's events to deliveries to signed POSTs, retried on the schedule. */
@Module({
  imports: [RepositoriesModule, WebhookQueueModule, MailQueueModule],
  providers: [
    WebhookDispatcher,
    WebhookProcessor,
    WebhookDeliveryService,
    WebhookSender,
    // The system's resolver; unit tests give their own.
    { provide: WEBHOOK_RESOLVER, useValue: undefined },
  ],
})
export class WebhooksModule {}
