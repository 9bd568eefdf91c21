import { INestApplication } from '@nestjs/common';
import { SesameConfig, setupOpenApi } from '@sesame/common';
import { OAuthError } from './oauth/oauth-error.dto';

export function setupAuthOpenApi(app: INestApplication, config: SesameConfig) {
  return setupOpenApi(app, config, {
    title: 'Sesame auth API',
    version: 'v1',
    // Pages (the hosted login page, login links, autologin) answer errors as pages: @ApiErrorPages().
    errorBody: { mediaType: 'application/json', model: OAuthError },
    description: 'Log users in with e-mailed login links and an OAuth 2.0 authorization-code flow with state and PKCE.',
  });
}
