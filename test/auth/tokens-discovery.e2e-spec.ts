import request from 'supertest';
import { registeredRoutes, RunningApp, startAuthApi } from '../support/apps';
import { validateOpenApi } from '../support/openapi-validator';

/**
 * Metadata (RFC 8414, and the same document at the OpenID Connect discovery location), the JWKS,
 * and the OpenAPI document, which must describe every v1 route the app really serves.
 */
describe('discovery, JWKS and the OpenAPI document of the auth API', () => {
  const PUBLIC_BASE_URL = 'https://id.example.test/api';
  const ISSUER = `${PUBLIC_BASE_URL}/v1`;
  let auth: RunningApp;

  beforeAll(async () => {
    auth = await startAuthApi({ env: { PUBLIC_BASE_URL } });
  });

  afterAll(async () => {
    await auth.close();
  });

  it('publishes RFC 8414 metadata whose issuer is PUBLIC_BASE_URL + /v1, and the same document as openid-configuration', async () => {
    const response = await request(auth.url).get('/api/v1/.well-known/oauth-authorization-server').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/authorize`,
      token_endpoint: `${ISSUER}/verify`,
      userinfo_endpoint: `${ISSUER}/userinfo`,
      jwks_uri: `${ISSUER}/.well-known/jwks.json`,
      revocation_endpoint: `${ISSUER}/revoke`,
      introspection_endpoint: `${ISSUER}/introspect`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['ES256'],
      id_token_encryption_alg_values_supported: ['dir'],
      id_token_encryption_enc_values_supported: ['A256GCM'],
      subject_types_supported: ['public'],
      ui_locales_supported: ['en', 'de', 'fr', 'es'],
    });
    expect([...response.body.token_endpoint_auth_methods_supported].sort()).toEqual(['client_secret_basic', 'client_secret_post', 'none']);
    expect([...response.body.revocation_endpoint_auth_methods_supported].sort()).toEqual([
      'client_secret_basic',
      'client_secret_post',
      'none',
    ]);
    expect([...response.body.introspection_endpoint_auth_methods_supported].sort()).toEqual(['client_secret_basic', 'client_secret_post']);
    expect(response.body.claims_supported).toEqual(
      expect.arrayContaining(['iss', 'sub', 'aud', 'iat', 'exp', 'auth_time', 'nonce', 'email', 'email_verified', 'org_id']),
    );

    const openid = await request(auth.url).get('/api/v1/.well-known/openid-configuration').expect(200);
    expect(openid.body).toEqual(response.body);
  });

  it('every endpoint the metadata names is served by the app (none answers 404)', async () => {
    const { body } = await request(auth.url).get('/api/v1/.well-known/oauth-authorization-server').expect(200);
    const local = (url: string) => url.replace(PUBLIC_BASE_URL, '/api');
    const checks: [string, 'get' | 'post', number][] = [
      [body.authorization_endpoint, 'get', 400], // no client_id: the error page
      [body.token_endpoint, 'post', 400], // no form body: refused before client authentication
      [body.userinfo_endpoint, 'get', 401],
      [body.jwks_uri, 'get', 200],
      [body.revocation_endpoint, 'post', 400],
      [body.introspection_endpoint, 'post', 400],
    ];
    for (const [url, method, status] of checks) {
      const response = await request(auth.url)[method](local(url));
      expect({ url, status: response.status }).toEqual({ url, status });
    }
  });

  it('publishes the signing keys as a JWK Set of public ES256 keys', async () => {
    const response = await request(auth.url).get('/api/v1/.well-known/jwks.json').expect(200);
    expect(response.body.keys.length).toBeGreaterThanOrEqual(1);
    for (const key of response.body.keys) {
      expect(key).toMatchObject({
        kty: 'EC',
        crv: 'P-256',
        alg: 'ES256',
        use: 'sig',
        kid: expect.any(String),
        x: expect.any(String),
        y: expect.any(String),
      });
      expect(key).not.toHaveProperty('d');
    }
  });

  it('the OpenAPI document at /api/v1/openapi.json describes every route the app serves', async () => {
    const response = await request(auth.url).get('/api/v1/openapi.json').expect(200);
    const documented = new Set(
      Object.entries(response.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const served = registeredRoutes(auth)
      .map((route) => route.replace(/:(\w+)/g, '{$1}'))
      .filter((route) => !/ \/api\/(v1\/(docs|openapi\.(json|yaml))|metrics$)/.test(route));
    // The routes this issue is about, so that a broken route listing cannot make the check pass vacuously.
    expect(served).toEqual(
      expect.arrayContaining([
        'POST /api/v1/verify',
        'GET /api/v1/userinfo',
        'POST /api/v1/revoke',
        'POST /api/v1/introspect',
        'GET /api/v1/authorize',
        'POST /api/v1/authorize',
        'GET /api/v1/.well-known/oauth-authorization-server',
        'GET /api/v1/.well-known/openid-configuration',
        'GET /api/v1/.well-known/jwks.json',
        'POST /api/v1/authenticate_direct',
        'GET /api/v1/login_link',
        'POST /api/v1/login_link',
      ]),
    );
    expect(served.filter((route) => !documented.has(route))).toEqual([]);
    expect(validateOpenApi(response.body)).toEqual({ valid: true });
  });

  it('describes the parameters, bodies and errors of the login and token endpoints', async () => {
    type Parameter = { name: string; in: string; required?: boolean };
    type Operation = {
      parameters?: Parameter[];
      requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[]; $ref?: string } }> };
      responses: Record<string, unknown>;
    };
    const { body } = await request(auth.url).get('/api/v1/openapi.json').expect(200);
    const operation = (method: string, path: string): Operation => body.paths[path][method];

    const show = operation('get', '/api/v1/authorize');
    const query = Object.fromEntries(
      (show.parameters ?? [])
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => [parameter.name, parameter.required ?? false]),
    );
    expect(query).toEqual({
      response_type: true,
      client_id: true,
      redirect_uri: true,
      state: true,
      code_challenge: true,
      code_challenge_method: true,
      nonce: false,
      ui_locales: false,
      login_hint: false,
    });
    expect(Object.keys(show.responses).sort()).toEqual(['200', '302', '400', '429', '503']);

    const submit = operation('post', '/api/v1/authorize');
    const form = submit.requestBody!.content['application/x-www-form-urlencoded'].schema;
    expect(form.required).toEqual(
      expect.arrayContaining(['client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'csrf', 'email']),
    );
    expect(Object.keys(submit.responses).sort()).toEqual(['200', '400', '403', '413', '415', '429', '503']);

    for (const [path, responses] of [
      ['/api/v1/verify', ['200', '400', '401', '413', '415', '429', '503']],
      ['/api/v1/revoke', ['200', '400', '401', '413', '415', '429', '503']],
      ['/api/v1/introspect', ['200', '400', '401', '413', '415', '429', '503']],
    ] as const) {
      const post = operation('post', path);
      expect({ path, consumes: Object.keys(post.requestBody!.content) }).toEqual({ path, consumes: ['application/x-www-form-urlencoded'] });
      expect({ path, responses: Object.keys(post.responses).sort() }).toEqual({ path, responses });
    }
    expect(body.components.schemas.VerifyForm.properties.autologin).toMatchObject({ enum: ['true', 'false'] });
    expect(Object.keys(operation('post', '/api/v1/login_link').responses).sort()).toEqual([
      '303',
      '400',
      '403',
      '404',
      '413',
      '415',
      '429',
      '503',
    ]);
    expect(Object.keys(operation('get', '/api/v1/autologin').responses).sort()).toEqual(['303', '400', '404', '429', '503']);
    expect(Object.keys(operation('get', '/api/v1/userinfo').responses).sort()).toEqual(['200', '401', '429', '503']);

    // Cookies and Accept-Language are optional: a document that requires them misleads every generated client.
    const requiredHeaders = Object.entries(body.paths as Record<string, Record<string, Operation>>).flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, op]) =>
        (op.parameters ?? [])
          .filter((parameter) => parameter.in === 'header' && parameter.required)
          .map((parameter) => `${method.toUpperCase()} ${path}: ${parameter.name}`),
      ),
    );
    expect(requiredHeaders).toEqual([]);
  });
});
