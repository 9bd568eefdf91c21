import { INestApplication } from '@nestjs/common';
import { SesameConfig, setupOpenApi } from '@sesame/common';

export function setupAuthOpenApi(app: INestApplication, config: SesameConfig) {
  return setupOpenApi(app, config, {
    title: 'Sesame auth API',
    version: 'v1',
    description: 'Log users in with e-mailed login links and an OAuth 2.0 authorization-code flow with state and PKCE.',
  });
}
