import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiConflictResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ProblemDetails, UuidParam } from '@sesame/common';
import { Access, CurrentTenantId } from '../access/access.decorator';
import { ManagementErrors } from '../access/management-errors';
import { Audited, fromParam } from '../audit/audited.decorator';
import { WebhookEventRedeliveryResponse } from './dto/webhook-endpoint.dto';
import { WebhooksService } from './webhooks.service';

/** /v2/tenant/webhook_event: an event, across the endpoints it reached. */
@ApiTags('Webhooks')
@Controller({ path: 'tenant/webhook_event', version: '2' })
export class WebhookEventsController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post(':eventId/redeliver')
  @HttpCode(202)
  @Access({ role: 'admin' })
  @Audited('webhook_event.redeliver', fromParam('eventId'))
  @ApiOperation({
    summary: 'Send an event again to every endpoint it reached: its finished deliveries, same `webhook-id`, a fresh schedule each',
  })
  @ApiAcceptedResponse({ type: WebhookEventRedeliveryResponse })
  @ApiConflictResponse({
    type: ProblemDetails,
    description: 'Every delivery of the event is still pending: they will be tried (`webhook_delivery_pending`).',
  })
  @ManagementErrors({ notFound: true })
  redeliver(@CurrentTenantId() tenantId: string, @UuidParam('eventId') eventId: string) {
    return this.webhooks.redeliverEvent(tenantId, eventId);
  }
}
