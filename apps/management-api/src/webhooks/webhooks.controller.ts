import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { pageOf, PageQuery, ProblemDetails, UuidParam } from '@sesame/common';
import { Access, CurrentTenantId } from '../access/access.decorator';
import { ManagementErrors } from '../access/management-errors';
import { Audited, fromAnswer, fromParam } from '../audit/audited.decorator';
import {
  CreatedWebhookEndpointResponse,
  CreateWebhookEndpointDto,
  UpdateWebhookEndpointDto,
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  WebhookRedeliveryResponse,
  WebhookSecretResponse,
  WebhookTestResponse,
} from './dto/webhook-endpoint.dto';
import { WebhooksService } from './webhooks.service';

class WebhookEndpointPage extends pageOf(WebhookEndpointResponse) {}
class WebhookDeliveryPage extends pageOf(WebhookDeliveryResponse) {}

@ApiTags('Webhooks')
@Controller({ path: 'tenant/webhook_endpoint', version: '2' })
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @Access({ role: 'viewer' })
  @ApiOperation({ summary: "List the tenant's webhook endpoints" })
  @ApiOkResponse({ type: WebhookEndpointPage })
  @ManagementErrors()
  list(@CurrentTenantId() tenantId: string, @Query() page: PageQuery) {
    return this.webhooks.list(tenantId, page);
  }

  @Post()
  @Access({ role: 'admin' })
  @Audited('webhook_endpoint.create', fromAnswer)
  @ApiOperation({ summary: 'Add a webhook endpoint; its signing secret is shown only in this response' })
  @ApiCreatedResponse({ type: CreatedWebhookEndpointResponse })
  @ApiConflictResponse({ type: ProblemDetails, description: 'The tenant has 20 endpoints already (`webhook_endpoint_limit`).' })
  @ManagementErrors()
  create(@CurrentTenantId() tenantId: string, @Body() body: CreateWebhookEndpointDto) {
    return this.webhooks.create(tenantId, body);
  }

  @Get(':endpointId')
  @Access({ role: 'viewer' })
  @ApiOperation({ summary: 'Read a webhook endpoint (never its secret)' })
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ManagementErrors({ notFound: true })
  get(@CurrentTenantId() tenantId: string, @UuidParam('endpointId') id: string) {
    return this.webhooks.get(tenantId, id);
  }

  @Post(':endpointId')
  @HttpCode(200)
  @Access({ role: 'admin' })
  @Audited('webhook_endpoint.update', fromParam('endpointId'))
  @ApiOperation({ summary: 'Change a webhook endpoint: URL, description, event types, enabled' })
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ManagementErrors({ notFound: true })
  update(@CurrentTenantId() tenantId: string, @UuidParam('endpointId') id: string, @Body() body: UpdateWebhookEndpointDto) {
    return this.webhooks.update(tenantId, id, body);
  }

  @Delete(':endpointId')
  @HttpCode(204)
  @Access({ role: 'admin' })
  @Audited('webhook_endpoint.delete', fromParam('endpointId'))
  @ApiOperation({ summary: 'Remove a webhook endpoint with its deliveries' })
  @ApiNoContentResponse({ description: 'Removed.' })
  @ManagementErrors({ notFound: true })
  async delete(@CurrentTenantId() tenantId: string, @UuidParam('endpointId') id: string): Promise<void> {
    await this.webhooks.delete(tenantId, id);
  }

  @Post(':endpointId/rotate_secret')
  @HttpCode(200)
  @Access({ role: 'admin', freshSignIn: true })
  @Audited('webhook_endpoint.rotate_secret', fromParam('endpointId'))
  @ApiOperation({ summary: 'Replace the signing secret; the old one also signs during WEBHOOK_SECRET_ROTATION_OVERLAP_SECONDS' })
  @ApiOkResponse({ type: WebhookSecretResponse })
  @ManagementErrors({ notFound: true })
  rotateSecret(@CurrentTenantId() tenantId: string, @UuidParam('endpointId') id: string) {
    return this.webhooks.rotateSecret(tenantId, id);
  }

  @Post(':endpointId/test')
  @HttpCode(202)
  @Access({ role: 'admin' })
  @Audited('webhook_endpoint.test', fromParam('endpointId'))
  @ApiOperation({ summary: 'Send a `ping` event to this endpoint (delivered by the worker, like every event)' })
  @ApiAcceptedResponse({ type: WebhookTestResponse })
  @ApiConflictResponse({ type: ProblemDetails, description: 'The endpoint is disabled (`webhook_endpoint_disabled`).' })
  @ManagementErrors({ notFound: true })
  test(@CurrentTenantId() tenantId: string, @UuidParam('endpointId') id: string) {
    return this.webhooks.test(tenantId, id);
  }

  @Get(':endpointId/delivery')
  @Access({ role: 'viewer' })
  @ApiOperation({ summary: "The endpoint's deliveries, newest first, with every try: status, duration, the answer's first kilobyte" })
  @ApiOkResponse({ type: WebhookDeliveryPage })
  @ManagementErrors({ notFound: true })
  deliveries(@CurrentTenantId() tenantId: string, @UuidParam('endpointId') id: string, @Query() page: PageQuery) {
    return this.webhooks.deliveriesOf(tenantId, id, page);
  }

  @Post(':endpointId/delivery/:deliveryId/redeliver')
  @HttpCode(202)
  @Access({ role: 'admin' })
  @Audited('webhook_delivery.redeliver', fromParam('deliveryId'))
  @ApiOperation({ summary: 'Send a finished delivery again: same event and `webhook-id`, a fresh schedule of retries' })
  @ApiAcceptedResponse({ type: WebhookRedeliveryResponse })
  @ApiConflictResponse({
    type: ProblemDetails,
    description: 'The delivery is still pending: it will be tried (`webhook_delivery_pending`).',
  })
  @ManagementErrors({ notFound: true })
  redeliver(@CurrentTenantId() tenantId: string, @UuidParam('endpointId') id: string, @UuidParam('deliveryId') deliveryId: string) {
    return this.webhooks.redeliver(tenantId, id, deliveryId);
  }
}
