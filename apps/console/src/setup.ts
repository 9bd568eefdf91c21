import { INestApplication, RequestMethod } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { documentCommonAnswers, documentPublicOperations, PROBLEM_BODY, SESAME_LICENSE, SesameConfig } from '@sesame/common';
import { SESSION_COOKIES } from './session/sesame-client.provider';

/**
 * The console serves /console/… (what the gateway routes to it) and, like every app, its health
 * and metrics under the API prefix (/api/health, /api/metrics), which the gateway does not expose.
 * Its own OpenAPI document is at /console/api/openapi.json (Swagger UI at /console/api/docs).
 */
export function setupConsoleApp(app: INestApplication, config: SesameConfig): void {
  app.setGlobalPrefix(config.http.apiPrefix, { exclude: [{ path: 'console{/*rest}', method: RequestMethod.ALL }] });
  const description =
    "The console's own API, for its pages: the session (signing in by e-mailed link, signing out) and the management API behind it. " +
    '`GET|POST|DELETE /console/api/v2/{path}` is the management API’s `/api/v2/{path}` (see its OpenAPI at /api/v2/openapi.json), called with the signed-in ' +
    'member’s token; send the tenant’s id as `Sesame-Tenant`. Every POST and DELETE needs the `X-CSRF-Token` of GET /console/api/session. ' +
    'Errors are RFC 9457 problem details. See docs/console.md.';
  const builder = new DocumentBuilder()
    .setTitle('Sesame console')
    .setVersion('v1')
    .setDescription(description)
    .setLicense(SESAME_LICENSE.name, SESAME_LICENSE.url)
    .addServer('/', 'This server')
    .addCookieAuth(
      SESSION_COOKIES.session,
      { type: 'apiKey', in: 'cookie', description: 'The session cookie that signing in sets (HttpOnly: the browser sends it).' },
      'session',
    );
  const document = documentPublicOperations(
    documentCommonAnswers(SwaggerModule.createDocument(app, builder.build(), { extraModels: [PROBLEM_BODY.model] }), PROBLEM_BODY),
  );
  SwaggerModule.setup('console/api/docs', app, document, {
    jsonDocumentUrl: 'console/api/openapi.json',
    yamlDocumentUrl: 'console/api/openapi.yaml',
    useGlobalPrefix: false,
  });
}
