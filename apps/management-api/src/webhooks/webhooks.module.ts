import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { AuditModule } from '../audit/audit.module';
import { WebhookEventsController } from './webhook-events.controller';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** /v2/tenant/webhook_endpoint and webhook_event: a tenant's endpoints, their secrets, test pings, deliveries and redeliveries (the worker delivers). */
@Module({
  imports: [RepositoriesModule, AuditModule],
  controllers: [WebhooksController, WebhookEventsController],
  providers: [WebhooksService],
})
export class WebhooksModule {}
