import { INestApplication } from '@nestjs/common';
import { SesameConfig, setupOpenApi } from '@sesame/common';

export function setupManagementOpenApi(app: INestApplication, config: SesameConfig) {
  return setupOpenApi(app, config, {
    title: 'Sesame management API',
    version: 'v2',
    description:
      'Manage tenants, organizations, users, applications and API keys. Authenticate with `Authorization: Bearer <API key>`. ' +
      'Errors are RFC 9457 problem details with a machine-readable `code`. Requests count against the tenant’s plan limits.',
    configure: (builder) => builder.addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A tenant, organization or platform API key' }, 'apiKey'),
  });
}
