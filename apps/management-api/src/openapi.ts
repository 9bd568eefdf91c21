import { INestApplication } from '@nestjs/common';
import { OpenAPIObject } from '@nestjs/swagger';
import { PROBLEM_BODY, SesameConfig, setupOpenApi } from '@sesame/common';
import { WEBHOOK_EVENT_MODELS } from './webhooks/dto/webhook-events.dto';

/** `WebhookEvent`: the body of every webhook delivery, one of the event schemas by its `type`. */
function documentWebhookEvents(document: OpenAPIObject): void {
  const schemas = document.components!.schemas!;
  const mapping: Record<string, string> = {};
  for (const model of WEBHOOK_EVENT_MODELS) {
    const ref = `#/components/schemas/${model.name}`;
    for (const type of (schemas[model.name] as { properties: { type: { enum: string[] } } }).properties.type.enum) mapping[type] = ref;
  }
  schemas.WebhookEvent = {
    description:
      'The JSON body of a webhook delivery (docs/webhooks.md), signed per Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`.',
    oneOf: WEBHOOK_EVENT_MODELS.map((model) => ({ $ref: `#/components/schemas/${model.name}` })),
    discriminator: { propertyName: 'type', mapping },
  };
}

export function setupManagementOpenApi(app: INestApplication, config: SesameConfig) {
  return setupOpenApi(app, config, {
    title: 'Sesame management API',
    version: 'v2',
    errorBody: PROBLEM_BODY,
    extraModels: WEBHOOK_EVENT_MODELS,
    extend: documentWebhookEvents,
    description:
      'Manage tenants, their members, organizations, users, applications and API keys; read the audit log, login activity and usage. ' +
      'Authenticate with `Authorization: Bearer <API key>`, or as a tenant member with a console access token and the tenant’s id in `Sesame-Tenant`. ' +
      'Errors are RFC 9457 problem details with a machine-readable `code`. Requests of API keys count against the tenant’s plan limits; members have a limit of their own.',
    // API keys (`sk_…`) and console access tokens are opaque random strings, not the JWT that Nest assumes by default.
    configure: (builder) =>
      builder
        .addBearerAuth(
          { type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'A tenant, organization or platform API key (`sk_…`)' },
          'apiKey',
        )
        .addBearerAuth(
          {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'opaque',
            description:
              'A console access token: issued to the Sesame console application when a member signs in. Send it with `Sesame-Tenant`.',
          },
          'member',
        )
        .addApiKey(
          {
            type: 'apiKey',
            in: 'header',
            name: 'Sesame-Tenant',
            description: 'With a member token: the id of the tenant the member acts in.',
          },
          'sesameTenant',
        ),
  });
}
