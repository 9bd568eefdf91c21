import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { RunningApp } from '../support/apps';
import { createOrganization, createTenant, TenantFixture } from '../support/fixtures';
import { call, expectProblem, startUnthrottledManagementApi, unknownApiKey, V2, validationProblem, walkPages } from '../support/management';

describe('management API over HTTP', () => {
  let api: RunningApp;
  let tenant: TenantFixture;

  beforeAll(async () => {
    api = await startUnthrottledManagementApi();
    tenant = await createTenant(api.url);
  });
  afterAll(() => api.close());

  const post = (path: string, contentType: string, body: string) =>
    request(api.url).post(`${V2}${path}`).set('Authorization', `Bearer ${tenant.apiKey}`).set('Content-Type', contentType).send(body);

  describe('health', () => {
    it.each([
      ['without a key', undefined],
      ['with an unknown key', `Bearer ${unknownApiKey()}`],
      ['with a malformed header', 'Bearer'],
    ])('GET /api/health reports Postgres and Redis up and the instance not shutting down, %s', async (_, authorization) => {
      const test = request(api.url).get('/api/health');
      if (authorization) test.set('Authorization', authorization);
      const response = await test;
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toEqual({
        status: 'ok',
        info: { postgres: expect.objectContaining({ status: 'up' }), redis: { status: 'up' }, shutdown: { status: 'up' } },
        error: {},
        details: { postgres: expect.objectContaining({ status: 'up' }), redis: { status: 'up' }, shutdown: { status: 'up' } },
      });
    });
  });

  describe('routes', () => {
    it.each([
      ['an unknown path', 'get', '/api/v2/nothing-here'],
      ['an unknown version', 'get', '/api/v9/organization'],
      ['no version', 'get', '/api/organization'],
      ['a method the route does not have', 'put', `/api/v2/organization/00000000-0000-4000-8000-000000000000`],
      ['PATCH on a collection', 'patch', '/api/v2/organization'],
      ['DELETE on a collection', 'delete', '/api/v2/organization'],
    ] as const)('%s is a 404 problem, with or without a key', async (_, method, path) => {
      for (const key of [tenant.apiKey, null]) {
        const test = request(api.url)[method](path);
        if (key) test.set('Authorization', `Bearer ${key}`);
        expectProblem(await test, { status: 404, code: 'not_found', detail: 'No such route', instance: path });
      }
    });

    it('the problem instance never echoes the query string', async () => {
      const response = await call(api.url, 'get', '/organization?cursor=%3Cscript%3E', tenant.apiKey);
      expectProblem(response, {
        status: 400,
        code: 'invalid_cursor',
        detail: 'cursor is not a cursor this API returned',
        instance: `${V2}/organization`,
      });
    });
  });

  describe('bodies', () => {
    it.each([
      ['truncated JSON', '{"name": "x"'],
      ['a trailing comma', '{"name": "x",}'],
      ['single quotes', "{'name': 'x'}"],
      ['not JSON at all', 'name=x'],
    ])('malformed JSON (%s) is 400 malformed_body and creates nothing', async (_, body) => {
      const before = (await walkPages(api.url, '/organization', tenant.apiKey, 100)).items;
      expectProblem(await post('/organization', 'application/json', body), {
        status: 400,
        code: 'malformed_body',
        detail: 'The request body is not valid JSON',
        instance: `${V2}/organization`,
      });
      expect((await walkPages(api.url, '/organization', tenant.apiKey, 100)).items).toEqual(before);
    });

    it.each([
      ['a bare string', '"x"'],
      ['a bare number', '42'],
      ['null', 'null'],
    ])('JSON that is not an object or array (%s) is 400 malformed_body', async (_, body) => {
      const response = await post('/organization', 'application/json', body);
      expect([response.status, response.body.code, response.headers['content-type']]).toEqual([
        400,
        'malformed_body',
        'application/problem+json; charset=utf-8',
      ]);
    });

    it('a body over the configured limit is 413 payload_too_large', async () => {
      const body = JSON.stringify({ name: 'x', whitelistDomains: ['a'.repeat(api.config.http.bodyLimitBytes)] });
      expectProblem(await post('/organization', 'application/json', body), {
        status: 413,
        code: 'payload_too_large',
        detail: 'The request body is too large',
        instance: `${V2}/organization`,
      });
    });

    it.each([
      ['__proto__', '{"name":"Polluted","__proto__":{"isAdmin":true}}'],
      ['constructor', '{"name":"Polluted","constructor":{"prototype":{"isAdmin":true}}}'],
    ])('a %s key is rejected like any other unknown field, not silently dropped', async (field, body) => {
      const before = (await walkPages(api.url, '/organization', tenant.apiKey, 100)).items;
      expectProblem(await post('/organization', 'application/json', body), {
        ...validationProblem([{ field, messages: [`property ${field} should not exist`] }]),
        instance: `${V2}/organization`,
      });
      expect((await walkPages(api.url, '/organization', tenant.apiKey, 100)).items).toEqual(before);
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    });

    it('an update with a __proto__ key changes nothing', async () => {
      const organization = await createOrganization(api.url, tenant, { name: 'Unpolluted' });
      const path = `/organization/${organization.organizationId}`;
      expectProblem(
        await post(path, 'application/json', '{"name":"Polluted","__proto__":{"tenantId":"x"}}'),
        validationProblem([{ field: '__proto__', messages: ['property __proto__ should not exist'] }]),
      );
      expect((await call(api.url, 'get', path, tenant.apiKey).expect(200)).body.name).toBe('Unpolluted');
    });

    it('a JSON array instead of an object is rejected', async () => {
      expectProblem(await post('/tenant/api_key', 'application/json', '[{"name":"x"}]'), {
        ...validationProblem([
          { field: '0', messages: ['property 0 should not exist'] },
          {
            field: 'name',
            messages: ['name must be a string', 'name should not be empty', 'name must be shorter than or equal to 200 characters'],
          },
        ]),
        instance: `${V2}/tenant/api_key`,
      });
    });

    it('an empty JSON body is an empty object, as clients that always send the header expect', async () => {
      expectProblem(await post('/tenant/api_key', 'application/json', ''), {
        ...validationProblem([
          {
            field: 'name',
            messages: ['name must be a string', 'name should not be empty', 'name must be shorter than or equal to 200 characters'],
          },
        ]),
        instance: `${V2}/tenant/api_key`,
      });
      const organization = await createOrganization(api.url, tenant, { name: 'Deleted with a header' });
      const path = `/organization/${organization.organizationId}`;
      await request(api.url)
        .delete(`${V2}${path}`)
        .set('Authorization', `Bearer ${tenant.apiKey}`)
        .set('Content-Type', 'application/json')
        .send('')
        .expect(204);
      await call(api.url, 'get', path, tenant.apiKey).expect(404);
    });

    it('a body the API does not read (text/plain) is 415', async () => {
      expectProblem(await post('/tenant/api_key', 'text/plain', '{"name":"x"}'), {
        status: 415,
        code: 'unsupported_media_type',
        detail: 'Unsupported content type',
        instance: `${V2}/tenant/api_key`,
      });
    });
  });

  it('every error of the API is a problem with its own code, and success answers are plain JSON', async () => {
    const organization = await createOrganization(api.url, tenant);
    const ok = await call(api.url, 'get', `/organization/${organization.organizationId}`, tenant.apiKey).expect(200);
    expect(ok.headers['content-type']).toBe('application/json; charset=utf-8');
    const answers = await Promise.all([
      call(api.url, 'get', '/organization', null),
      call(api.url, 'get', '/organization', 'sk_nope'),
      call(api.url, 'get', '/organization/nope', tenant.apiKey),
      call(api.url, 'get', `/organization/${randomUUID()}`, tenant.apiKey),
      call(api.url, 'post', '/tenant', tenant.apiKey, { name: 'x', plan: 'pro' }),
      call(api.url, 'post', '/organization', tenant.apiKey, {}),
    ]);
    expect(answers.map((answer) => [answer.status, answer.body.code, answer.headers['content-type']])).toEqual([
      [401, 'missing_api_key', 'application/problem+json; charset=utf-8'],
      [401, 'invalid_api_key', 'application/problem+json; charset=utf-8'],
      [400, 'invalid_id', 'application/problem+json; charset=utf-8'],
      [404, 'not_found', 'application/problem+json; charset=utf-8'],
      [403, 'platform_key_required', 'application/problem+json; charset=utf-8'],
      [400, 'validation_failed', 'application/problem+json; charset=utf-8'],
    ]);
    for (const answer of answers) expect(answer.body.type).toBe(`urn:sesame:error:${answer.body.code}`);
  });
});
