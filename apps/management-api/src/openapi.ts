import { INestApplication } from '@nestjs/common';
import { PROBLEM_BODY, SesameConfig, setupOpenApi } from '@sesame/common';

export function setupManagementOpenApi(app: INestApplication, config: SesameConfig) {
  return setupOpenApi(app, config, {
    title: 'Sesame management API',
    version: 'v2',
    errorBody: PROBLEM_BODY,
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
