import request from 'supertest';
import { RunningApp } from '../support/apps';
import { registeredRoutes, startUnthrottledManagementApi } from '../support/management';
import { validateOpenApi } from '../support/openapi-validator';

type Operation = {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
  security?: Record<string, string[]>[];
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }>;
    securitySchemes: Record<string, unknown>;
  };
};

/** The success status each route answers (checked against real answers in the other test files). */
const SUCCESS: Record<string, string> = {
  'GET /api/health': '200',
  'GET /api/v2/tenant': '200',
  'POST /api/v2/tenant': '201',
  'GET /api/v2/tenant/usage': '200',
  'GET /api/v2/tenant/usage/history': '200',
  'GET /api/v2/tenant/member': '200',
  'POST /api/v2/tenant/member': '201',
  'POST /api/v2/tenant/member/{memberId}': '200',
  'DELETE /api/v2/tenant/member/{memberId}': '204',
  'GET /api/v2/tenant/audit_event': '200',
  'GET /api/v2/me': '200',
  'GET /api/v2/organization/{organizationId}/login_attempt': '200',
  'GET /api/v2/tenant/{tenantId}': '200',
  'POST /api/v2/tenant/{tenantId}': '200',
  'GET /api/v2/tenant/api_key': '200',
  'POST /api/v2/tenant/api_key': '201',
  'DELETE /api/v2/tenant/api_key/{keyId}': '204',
  'GET /api/v2/organization': '200',
  'POST /api/v2/organization': '201',
  'GET /api/v2/organization/{id}': '200',
  'POST /api/v2/organization/{id}': '200',
  'DELETE /api/v2/organization/{id}': '204',
  'GET /api/v2/organization/{organizationId}/user': '200',
  'POST /api/v2/organization/{organizationId}/user': '201',
  'GET /api/v2/organization/{organizationId}/user/{userId}': '200',
  'POST /api/v2/organization/{organizationId}/user/{userId}': '200',
  'DELETE /api/v2/organization/{organizationId}/user/{userId}': '204',
  'GET /api/v2/organization/{organizationId}/user/{userId}/passkey': '200',
  'DELETE /api/v2/organization/{organizationId}/user/{userId}/passkey/{passkeyId}': '204',
  'GET /api/v2/organization/{organizationId}/application': '200',
  'POST /api/v2/organization/{organizationId}/application': '201',
  'GET /api/v2/organization/{organizationId}/application/{applicationId}': '200',
  'POST /api/v2/organization/{organizationId}/application/{applicationId}': '200',
  'POST /api/v2/organization/{organizationId}/application/{applicationId}/rotate_secret': '200',
  'DELETE /api/v2/organization/{organizationId}/application/{applicationId}': '204',
  'GET /api/v2/organization/{organizationId}/api_key': '200',
  'POST /api/v2/organization/{organizationId}/api_key': '201',
  'DELETE /api/v2/organization/{organizationId}/api_key/{keyId}': '204',
  'GET /api/v2/tenant/webhook_endpoint': '200',
  'POST /api/v2/tenant/webhook_endpoint': '201',
  'GET /api/v2/tenant/webhook_endpoint/{endpointId}': '200',
  'POST /api/v2/tenant/webhook_endpoint/{endpointId}': '200',
  'DELETE /api/v2/tenant/webhook_endpoint/{endpointId}': '204',
  'POST /api/v2/tenant/webhook_endpoint/{endpointId}/rotate_secret': '200',
  'POST /api/v2/tenant/webhook_endpoint/{endpointId}/test': '202',
  'GET /api/v2/tenant/webhook_endpoint/{endpointId}/delivery': '200',
  'POST /api/v2/tenant/webhook_endpoint/{endpointId}/delivery/{deliveryId}/redeliver': '202',
  'POST /api/v2/tenant/webhook_event/{eventId}/redeliver': '202',
};

/** Request bodies and the fields they require. */
const BODIES: Record<string, { schema: string; required: string[] }> = {
  'POST /api/v2/tenant': { schema: 'CreateTenantDto', required: ['name', 'plan'] },
  'POST /api/v2/tenant/{tenantId}': { schema: 'UpdateTenantDto', required: [] },
  'POST /api/v2/tenant/api_key': { schema: 'CreateApiKeyDto', required: ['name'] },
  'POST /api/v2/tenant/member': { schema: 'InviteMemberDto', required: ['email', 'role'] },
  'POST /api/v2/tenant/member/{memberId}': { schema: 'UpdateMemberDto', required: ['role'] },
  'POST /api/v2/organization': { schema: 'CreateOrganizationDto', required: ['name'] },
  'POST /api/v2/organization/{id}': { schema: 'UpdateOrganizationDto', required: [] },
  'POST /api/v2/organization/{organizationId}/user': { schema: 'CreateUserDto', required: ['email'] },
  'POST /api/v2/organization/{organizationId}/user/{userId}': { schema: 'UpdateUserDto', required: [] },
  'POST /api/v2/organization/{organizationId}/application': { schema: 'CreateApplicationDto', required: ['name', 'type'] },
  'POST /api/v2/organization/{organizationId}/application/{applicationId}': { schema: 'UpdateApplicationDto', required: [] },
  'POST /api/v2/organization/{organizationId}/api_key': { schema: 'CreateApiKeyDto', required: ['name'] },
  'POST /api/v2/organization/{organizationId}/application/{applicationId}/rotate_secret': { schema: 'RotateSecretDto', required: [] },
  'POST /api/v2/tenant/webhook_endpoint': { schema: 'CreateWebhookEndpointDto', required: ['url'] },
  'POST /api/v2/tenant/webhook_endpoint/{endpointId}': { schema: 'UpdateWebhookEndpointDto', required: [] },
};

const PROBLEM = '#/components/schemas/ProblemDetails';
const KEY_OR_MEMBER = [{ apiKey: [] }, { member: [], sesameTenant: [] }];
/** Who may call a route, as its `security` says: API keys, and members unless said otherwise here. */
const SECURITY: Record<string, Record<string, string[]>[]> = {
  'POST /api/v2/tenant': [{ apiKey: [] }],
  'GET /api/v2/me': [{ member: [] }],
};
const toOpenApiPath = (route: string) => route.replace(/:(\w+)/g, '{$1}');

describe('OpenAPI document of the management API', () => {
  let api: RunningApp;
  let document: Document;
  let operations: [string, Operation][];

  beforeAll(async () => {
    api = await startUnthrottledManagementApi();
    const response = await request(api.url).get('/api/v2/openapi.json').expect(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    document = response.body;
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation] as [string, Operation]),
    );
  });
  afterAll(() => api.close());

  it('is a valid OpenAPI 3 document (@apidevtools/swagger-parser)', () => {
    expect(document.openapi).toMatch(/^3\./);
    expect(validateOpenApi(document)).toEqual({ valid: true });
  });

  it('the validator does reject a broken document', () => {
    const broken = structuredClone(document) as unknown as { paths: Record<string, Record<string, { responses?: unknown }>> };
    delete broken.paths['/api/v2/organization/{id}'].get.responses;
    expect(validateOpenApi(broken)).toEqual({ valid: false, errors: expect.stringContaining("must have required property 'responses'") });
  });

  it('is served without an API key, also as YAML', async () => {
    const yaml = await request(api.url).get('/api/v2/openapi.yaml').expect(200);
    expect(yaml.text).toMatch(/^openapi: 3\./m);
    expect(yaml.text).toContain('/api/v2/organization/{id}:');
  });

  it('documents exactly the routes the app serves, each with its success status', () => {
    const served = registeredRoutes(api)
      // Prometheus's scrape endpoint (outside /api/v2, not exposed by the gateway) is not part of the API.
      .filter((route) => !/^GET \/api\/(v2\/openapi\.(json|yaml)|metrics)$/.test(route))
      .map(toOpenApiPath);
    expect(operations.map(([route]) => route).sort()).toEqual([...served].sort());
    expect(Object.keys(SUCCESS).sort()).toEqual([...served].sort());
    for (const [route, operation] of operations) {
      const successes = Object.keys(operation.responses).filter((status) => status.startsWith('2'));
      expect([route, successes]).toEqual([route, [SUCCESS[route]]]);
    }
  });

  it('includes the specification’s two organization endpoints with the organization as their answer', () => {
    for (const method of ['get', 'post']) {
      const operation = document.paths['/api/v2/organization/{id}'][method];
      expect(operation.responses['200'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/OrganizationResponse' });
      expect(operation.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
      expect(operation.security).toEqual(KEY_OR_MEMBER);
    }
    expect(document.components.schemas.OrganizationResponse.required).toEqual(expect.arrayContaining(['id', 'name']));
    expect(document.components.schemas.UpdateOrganizationDto.properties).toHaveProperty('name');
  });

  it('every keyed route documents its security (API keys, member tokens with Sesame-Tenant) and its error answers as problem details', () => {
    expect(document.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(document.components.securitySchemes.member).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(document.components.securitySchemes.sesameTenant).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'Sesame-Tenant' }),
    );
    for (const [route, operation] of operations) {
      if (route === 'GET /api/health') continue;
      const statuses = Object.keys(operation.responses);
      // Any member token may lack a valid Sesame-Tenant (400); the person's own route needs none.
      const expected = route === 'GET /api/v2/me' ? ['401', '403', '429'] : ['400', '401', '403', '429'];
      if (route.includes('{')) expected.push('404');
      expect([route, operation.security]).toEqual([route, SECURITY[route] ?? KEY_OR_MEMBER]);
      expect([route, statuses]).toEqual([route, expect.arrayContaining(expected)]);
      for (const status of statuses.filter((code) => /^[45]/.test(code))) {
        expect([route, status, operation.responses[status].content]).toEqual([
          route,
          status,
          { 'application/problem+json': { schema: { $ref: PROBLEM } } },
        ]);
      }
    }
    expect(Object.keys(document.paths['/api/v2/organization/{organizationId}/user'].post.responses)).toContain('409');
    expect(document.components.schemas.ProblemDetails.required).toEqual(
      expect.arrayContaining(['type', 'title', 'status', 'detail', 'code']),
    );
  });

  it('declares every path parameter', () => {
    for (const [route, operation] of operations) {
      const names = [...route.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const declared = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
      expect([route, declared.sort()]).toEqual([route, names.sort()]);
    }
  });

  it('documents every request body with its required fields, and success bodies', () => {
    for (const [route, operation] of operations) {
      const body = BODIES[route];
      if (!body) {
        expect([route, operation.requestBody]).toEqual([route, undefined]);
        continue;
      }
      expect([route, operation.requestBody?.content['application/json'].schema]).toEqual([
        route,
        { $ref: `#/components/schemas/${body.schema}` },
      ]);
      expect([route, document.components.schemas[body.schema].required ?? []]).toEqual([route, body.required]);
    }
    for (const [route, operation] of operations) {
      const status = SUCCESS[route];
      if (status === '204') expect([route, operation.responses[status].content]).toEqual([route, undefined]);
      else expect([route, Object.keys(operation.responses[status].content ?? {})]).toEqual([route, ['application/json']]);
    }
  });

  it('documents list endpoints as pages with limit and cursor', () => {
    for (const [route, operation] of operations) {
      if (!route.startsWith('GET') || SUCCESS[route] !== '200') continue;
      const isList =
        /\/(organization|user|application|api_key|member|audit_event|login_attempt)$/.test(route) || route === 'GET /api/v2/tenant';
      if (!isList) continue;
      const query = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
      expect([route, query]).toEqual([route, expect.arrayContaining(['limit', 'cursor'])]);
      const ref = operation.responses['200'].content!['application/json'].schema.$ref as string;
      const page = document.components.schemas[ref.split('/').pop()!];
      expect([route, Object.keys(page.properties ?? {}).sort()]).toEqual([route, ['data', 'nextCursor']]);
    }
  });

  it('/api/v2/docs answers Swagger UI as HTML, without an API key', async () => {
    const response = await request(api.url).get('/api/v2/docs').redirects(2);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toContain('<html');
    expect(response.text).toContain('swagger-ui');
  });
});
