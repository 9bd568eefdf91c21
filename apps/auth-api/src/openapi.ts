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
    configure: (builder) =>
      builder
        .addBasicAuth(
          {
            type: 'http',
            scheme: 'basic',
            description:
              'The application’s client ID and client secret (client_secret_basic). The token endpoints (verify, revoke, introspect) also take them as `client_id` and `client_secret` in the form (client_secret_post), and verify and revoke take a native application’s `client_id` alone.',
          },
          'client',
        )
        // Access tokens are opaque random strings, not the JWT that Nest assumes by default.
        .addBearerAuth(
          { type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'An access token from POST /api/v1/verify.' },
          'accessToken',
        ),
  });
}
