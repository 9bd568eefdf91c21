import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { AuditModule } from '../audit/audit.module';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** /v2/tenant/webhook_endpoint: a tenant's endpoints, their secrets, test pings and deliveries (the worker delivers). */
@Module({
  imports: [RepositoriesModule, AuditModule],
  controllers: [WebhooksController],
  providers: [WebhooksService],
})
export class WebhooksModule {}
