import { Inject, Injectable } from '@nestjs/common';
import {
  Clock,
  newWebhookSecret,
  notFound,
  Page,
  PageQuery,
  problem,
  SESAME_CONFIG,
  SesameConfig,
  toPage,
  WEBHOOK_PING,
  webhookUrlProblem,
} from '@sesame/common';
import {
  OrganizationRepository,
  Transactions,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  WebhookEventRepository,
} from '@sesame/entities';
import { randomUUID } from 'node:crypto';
import {
  CreatedWebhookEndpointResponse,
  CreateWebhookEndpointDto,
  UpdateWebhookEndpointDto,
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  WebhookEventRedeliveryResponse,
  WebhookRedeliveryResponse,
  WebhookSecretResponse,
  WebhookTestResponse,
} from './dto/webhook-endpoint.dto';

/** Endpoints a tenant may have: each event becomes a delivery per endpoint, so their number bounds the work one event makes. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

/** A tenant's webhook endpoints: where its events go, signed with a secret only the tenant sees (once). */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly events: WebhookEventRepository,
    private readonly organizations: OrganizationRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  async list(tenantId: string, page: PageQuery): Promise<Page<WebhookEndpointResponse>> {
    return toPage(await this.endpoints.list(tenantId, page), page.limit, WebhookEndpointResponse.from);
  }

  async get(tenantId: string, id: string): Promise<WebhookEndpointResponse> {
    return WebhookEndpointResponse.from(await this.existing(tenantId, id));
  }

  async create(tenantId: string, input: CreateWebhookEndpointDto): Promise<CreatedWebhookEndpointResponse> {
    this.checkUrl(input.url);
    if (input.organizationId && !(await this.organizations.find(tenantId, input.organizationId))) throw notFound('organization');
    if ((await this.endpoints.countOf(tenantId)) >= MAX_WEBHOOK_ENDPOINTS)
      throw problem('webhook_endpoint_limit', `A tenant has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; remove one first`);
    const secret = newWebhookSecret();
    const endpoint = await this.endpoints.insert(
      {
        id: randomUUID(),
        tenantId,
        organizationId: input.organizationId ?? null,
        url: input.url,
        description: input.description ?? null,
        eventTypes: input.eventTypes ?? [],
        enabled: input.enabled ?? true,
      },
      secret,
    );
    return { ...WebhookEndpointResponse.from(endpoint), secret };
  }

  async update(tenantId: string, id: string, changes: UpdateWebhookEndpointDto): Promise<WebhookEndpointResponse> {
    if (changes.url !== undefined) this.checkUrl(changes.url);
    const endpoint = await this.endpoints.update(tenantId, id, changes);
    if (!endpoint) throw notFound('webhook endpoint');
    return WebhookEndpointResponse.from(endpoint);
  }

  async delete(tenantId: string, id: string): Promise<void> {
    if (!(await this.endpoints.delete(tenantId, id))) throw notFound('webhook endpoint');
  }

  /** A new secret; the replaced one goes on signing (a second signature) for WEBHOOK_SECRET_ROTATION_OVERLAP_SECONDS. */
  async rotateSecret(tenantId: string, id: string): Promise<WebhookSecretResponse> {
    const secret = newWebhookSecret();
    const overlapEnds = new Date(this.clock.now().getTime() + this.config.webhooks.secretRotationOverlapSeconds * 1000);
    if (!(await this.endpoints.rotateSecret(tenantId, id, secret, overlapEnds))) throw notFound('webhook endpoint');
    return { secret, previousSecretExpiresAt: overlapEnds.toISOString() };
  }

  /** Sends a `ping` event to this endpoint only, through the same outbox and worker as every event. */
  async test(tenantId: string, id: string): Promise<WebhookTestResponse> {
    const endpoint = await this.existing(tenantId, id);
    if (!endpoint.enabled) throw problem('webhook_endpoint_disabled', 'This endpoint is disabled: enable it to send it a test event');
    const [eventId] = await this.transactions.run((manager) =>
      this.events.record(manager, { type: WEBHOOK_PING, scope: { tenantId }, endpointId: endpoint.id, data: { endpointId: endpoint.id } }),
    );
    return { eventId };
  }

  async deliveriesOf(tenantId: string, id: string, page: PageQuery): Promise<Page<WebhookDeliveryResponse>> {
    await this.existing(tenantId, id);
    return toPage(await this.deliveries.listForEndpoint(id, page), page.limit, WebhookDeliveryResponse.from);
  }

  /** Sends a finished delivery again (the worker queues it within WEBHOOK_DISPATCH_INTERVAL_MS), with a fresh schedule of retries. */
  async redeliver(tenantId: string, endpointId: string, deliveryId: string): Promise<WebhookRedeliveryResponse> {
    await this.existing(tenantId, endpointId);
    const redelivery = await this.deliveries.redeliver(endpointId, deliveryId);
    if (!redelivery) throw notFound('webhook delivery');
    if (redelivery === 'pending')
      throw problem('webhook_delivery_pending', 'This delivery is still pending: it will be tried on its schedule');
    return { deliveryId: redelivery.id, redeliveries: redelivery.redeliveries };
  }

  /** Every finished delivery of the event sent again (to the endpoints it reached); 409 when each is still pending. */
  async redeliverEvent(tenantId: string, eventId: string): Promise<WebhookEventRedeliveryResponse> {
    const redelivery = await this.deliveries.redeliverEvent(tenantId, eventId);
    if (!redelivery) throw notFound('webhook event');
    if (redelivery.redelivered.length === 0 && redelivery.stillPending > 0)
      throw problem('webhook_delivery_pending', 'Every delivery of this event is still pending: they will be tried on their schedule');
    return {
      eventId,
      redelivered: redelivery.redelivered.map((delivery) => ({
        deliveryId: delivery.id,
        endpointId: delivery.endpointId,
        redeliveries: delivery.redeliveries,
      })),
      stillPending: redelivery.stillPending,
    };
  }

  private async existing(tenantId: string, id: string) {
    const endpoint = await this.endpoints.find(tenantId, id);
    if (!endpoint) throw notFound('webhook endpoint');
    return endpoint;
  }

  private checkUrl(url: string): void {
    const reason = webhookUrlProblem(url, this.config.webhooks);
    if (reason) throw problem('webhook_url_not_allowed', reason);
  }
}
