import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsString, IsUUID, MaxLength } from 'class-validator';
import { Omittable, WEBHOOK_EVENT_TYPES, webhookBody, WebhookEventType } from '@sesame/common';
import { WebhookAttempt, WebhookDeliveryView, WebhookEndpoint } from '@sesame/entities';

export class CreateWebhookEndpointDto {
  @ApiProperty({
    example: 'https://api.example.com/sesame-webhooks',
    description: 'https, and not a private, loopback or link-local address.',
  })
  @IsString()
  @MaxLength(2000)
  url: string;

  @ApiPropertyOptional({ example: 'Creates accounts in our CRM', maxLength: 500 })
  @Omittable()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({
    enum: WEBHOOK_EVENT_TYPES,
    isArray: true,
    description: 'The event types to receive; empty or left out: all of them.',
  })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  eventTypes?: WebhookEventType[];

  @ApiPropertyOptional({ format: 'uuid', description: "Only this organization's events; left out: the whole tenant's." })
  @Omittable()
  @IsUUID()
  organizationId?: string;

  @ApiPropertyOptional({ default: true })
  @Omittable()
  @IsBoolean()
  enabled?: boolean;
}

export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ example: 'https://api.example.com/sesame-webhooks' })
  @Omittable()
  @IsString()
  @MaxLength(2000)
  url?: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @Omittable()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENT_TYPES, isArray: true })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  eventTypes?: WebhookEventType[];

  @ApiPropertyOptional()
  @Omittable()
  @IsBoolean()
  enabled?: boolean;
}

export class WebhookEndpointResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid', type: String, nullable: true })
  organizationId: string | null;

  @ApiProperty()
  url: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true, description: 'Empty: every event type.' })
  eventTypes: string[];

  @ApiProperty()
  enabled: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['failing'],
    description:
      'Why Sesame disabled it: `failing`, every try failed for WEBHOOK_DISABLE_AFTER_DAYS. Null when enabled or disabled by the tenant.',
  })
  disabledReason: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time' })
  updatedAt: string;

  static from(endpoint: WebhookEndpoint): WebhookEndpointResponse {
    return {
      id: endpoint.id,
      organizationId: endpoint.organizationId,
      url: endpoint.url,
      description: endpoint.description,
      eventTypes: endpoint.eventTypes,
      enabled: endpoint.enabled,
      disabledReason: endpoint.disabledReason,
      createdAt: endpoint.createdAt.toISOString(),
      updatedAt: endpoint.updatedAt.toISOString(),
    };
  }
}

export class WebhookSecretResponse {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'The signing secret (Standard Webhooks): shown only in this response. Verify deliveries with it.',
  })
  secret: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'Until when the replaced secret signs too (WEBHOOK_SECRET_ROTATION_OVERLAP_SECONDS after the rotation).',
  })
  previousSecretExpiresAt: string;
}

export class CreatedWebhookEndpointResponse extends WebhookEndpointResponse {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'The signing secret: shown only in this response.' })
  secret: string;
}

export class WebhookTestResponse {
  @ApiProperty({ format: 'uuid', description: 'The `ping` event’s id: the `webhook-id` of its delivery.' })
  eventId: string;
}

export class WebhookRedeliveryResponse {
  @ApiProperty({ format: 'uuid' })
  deliveryId: string;

  @ApiProperty({ description: 'How often this delivery has been redelivered, this time included.' })
  redeliveries: number;
}

export class RedeliveredWebhookDelivery {
  @ApiProperty({ format: 'uuid' })
  deliveryId: string;

  @ApiProperty({ format: 'uuid' })
  endpointId: string;

  @ApiProperty({ description: 'How often this delivery has been redelivered, this time included.' })
  redeliveries: number;
}

export class WebhookEventRedeliveryResponse {
  @ApiProperty({ format: 'uuid' })
  eventId: string;

  @ApiProperty({
    type: [RedeliveredWebhookDelivery],
    description: "The event's finished deliveries, sent again: same `webhook-id` and body, a fresh schedule of retries.",
  })
  redelivered: RedeliveredWebhookDelivery[];

  @ApiProperty({ description: 'Deliveries of the event still pending, left to their schedule.' })
  stillPending: number;
}

export class WebhookAttemptResponse {
  @ApiProperty({ type: String, format: 'date-time' })
  attemptedAt: string;

  @ApiProperty()
  durationMs: number;

  @ApiProperty({ type: Number, nullable: true, description: 'The endpoint’s status code; null when no answer came (see error).' })
  responseStatus: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'The first kilobyte of the answer.' })
  responseExcerpt: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'ECONNREFUSED: connect ECONNREFUSED 203.0.113.9:443' })
  error: string | null;

  static from(attempt: WebhookAttempt): WebhookAttemptResponse {
    return { ...attempt, attemptedAt: attempt.attemptedAt.toISOString() };
  }
}

export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid', description: 'The event’s id, sent as `webhook-id` on every try.' })
  eventId: string;

  @ApiProperty({ example: 'user.created' })
  type: string;

  @ApiProperty({ description: 'The body every try sends (`type`, `timestamp`, `data`), exactly as signed.' })
  requestBody: string;

  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'] })
  status: string;

  @ApiProperty()
  attempts: number;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  finishedAt: string | null;

  @ApiProperty({ type: WebhookAttemptResponse, isArray: true, description: 'Every try, newest first.' })
  attemptLog: WebhookAttemptResponse[];

  static from(delivery: WebhookDeliveryView): WebhookDeliveryResponse {
    return {
      id: delivery.id,
      eventId: delivery.eventId,
      type: delivery.type,
      requestBody: webhookBody(delivery.type, delivery.eventCreatedAt, delivery.payload),
      status: delivery.status,
      attempts: delivery.attempts,
      createdAt: delivery.createdAt.toISOString(),
      finishedAt: delivery.finishedAt?.toISOString() ?? null,
      attemptLog: delivery.attemptLog.map((attempt) => WebhookAttemptResponse.from(attempt)),
    };
  }
}
