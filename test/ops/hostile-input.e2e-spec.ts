import { request as rawRequest } from 'node:http';
import request, { Response } from 'supertest';
import { registeredRoutes, RunningApp, startAuthApi, startManagementApi } from '../support/apps';
import { authenticateDirect, expectOAuthError } from '../support/direct-auth';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { openAuthorize, submitEmail } from '../support/hosted-login';
import { basicAuth, pkcePair, uniqueEmail } from '../support/login';
import { call, expectProblem, PLATFORM_KEY, UNTHROTTLED_ENV, V2, validationProblem } from '../support/management';

const REDIRECT_URI = 'http://localhost:4000/callback';
const ENV = { ...UNTHROTTLED_ENV, ENDPOINT_LIMITS: JSON.stringify({ free: 100000, basic: 100000, pro: 100000, enterprise: 100000 }), PAGE_RATE_LIMIT: '100000' };

const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const nestedArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const FIELDS = ['name', 'state', 'email', 'code', 'token', 'key', 'redirect_uri', 'redirectUri', 'client_id', 'whitelistDomains', 'plan', 'role'];
const withEveryField = (value: string) => JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, value])));

/** What an attacker or a broken client sends: each is a body with its content type, or headers. */
const HOSTILE: { label: string; contentType?: string; body?: string | Buffer; headers?: Record<string, string> }[] = [
  { label: '2000-level nested object', contentType: 'application/json', body: nestedObject(2000) },
  { label: '10000-level nested array', contentType: 'application/json', body: nestedArray(10000) },
  { label: 'nested object as form field', contentType: 'application/json', body: JSON.stringify({ name: JSON.parse(nestedObject(40)) }) },
  { label: 'NUL in every field', contentType: 'application/json', body: withEveryField('x\u0000y') },
  { label: 'control characters in every field', contentType: 'application/json', body: withEveryField('x\u0001\u001b[31my') },
  { label: 'NUL in a form', contentType: 'application/x-www-form-urlencoded', body: FIELDS.map((field) => `${field}=x%00y`).join('&') },
  { label: 'NUL in a key', contentType: 'application/json', body: '{"na\\u0000me":"x"}' },
  { label: 'prototype pollution keys', contentType: 'application/json', body: '{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}},"name":"x"}' },
  { label: 'nested prototype pollution', contentType: 'application/json', body: '{"translations":{"__proto__":{"admin":true}},"name":{"constructor":{"prototype":{"a":1}}}}' },
  { label: 'malformed JSON', contentType: 'application/json', body: '{"name": "x"' },
  { label: 'invalid UTF-8', contentType: 'application/json', body: Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
  { label: 'a 2 MB body', contentType: 'application/json', body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }) },
  { label: 'text/plain', contentType: 'text/plain', body: '{"name":"x"}' },
  { label: 'XML', contentType: 'application/xml', body: '<organization><name>x</name></organization>' },
  { label: 'multipart', contentType: 'multipart/form-data; boundary=b', body: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n' },
  { label: 'no content type', body: '{"name":"x"}' },
  { label: 'an unknown charset', contentType: 'application/json; charset=koi8-r', body: '{"name":"x"}' },
  { label: 'a 12 KB header', headers: { 'X-Filler': 'a'.repeat(12 * 1024) } },
  { label: 'a 64 KB header', headers: { 'X-Filler': 'a'.repeat(64 * 1024) } },
  { label: 'NUL in the query', headers: {} },
];
const HOSTILE_QUERY = '?state=x%00y&cursor=%00&token=%00&limit=%00&email=%01&redirect_uri=%00&client_id=%00&__proto__[a]=1&constructor[prototype][a]=1';

/** Sends one hostile request; a refused connection (Node's own 431 for huge headers) is not an answer of the app. */
async function send(url: string, method: string, path: string, authorization: string, hostile: (typeof HOSTILE)[number]): Promise<Response | null> {
  const test = request(url)[method.toLowerCase() as 'get'](hostile.label === 'NUL in the query' ? `${path}${HOSTILE_QUERY}` : path).set('Authorization', authorization);
  if (hostile.headers) test.set(hostile.headers);
  if (hostile.contentType) test.set('Content-Type', hostile.contentType);
  if (hostile.body !== undefined && method !== 'GET') test.send(hostile.body);
  return test.catch((error: Error & { response?: Response }) => error.response ?? null);
}

function concrete(route: string, ids: Record<string, string>): { method: string; path: string } {
  const [method, path] = route.split(' ');
  return { method, path: path.replace(/:(\w+)/g, (_, name: string) => ids[name] ?? '00000000-0000-4000-8000-000000000000') };
}

/** Every request that answered 5xx, as "METHOD path (hostile input): status". */
async function serverErrors(app: RunningApp, ids: Record<string, string>, authorizations: string[]): Promise<string[]> {
  const failures: string[] = [];
  for (const route of registeredRoutes(app)) {
    const { method, path } = concrete(route, ids);
    for (const hostile of HOSTILE) {
      for (const authorization of authorizations) {
        const response = await send(app.url, method, path, authorization, hostile);
        if (response && response.status >= 500) failures.push(`${method} ${path} (${hostile.label}): ${response.status} ${response.text.slice(0, 200)}`);
        if (response && response.status >= 400) expect(response.text).not.toMatch(/\n\s+at [\w.<>]+ \(/);
      }
    }
  }
  return failures;
}

describe('hostile input on every public endpoint', () => {
  let management: RunningApp;
  let auth: RunningApp;
  let app: ApplicationFixture;

  beforeAll(async () => {
    management = await startManagementApi({ env: ENV });
    auth = await startAuthApi({ env: ENV });
    const tenant = await createTenant(management.url);
    const organization = await createOrganization(management.url, tenant, { whitelistDomains: ['http://localhost:4000'] });
    app = await createApplication(management.url, organization, { type: 'web' });
  });
  afterAll(async () => {
    await auth?.close();
    await management?.close();
  });

  describe('deeply nested JSON', () => {
    it('is refused with 400 by the management API', async () => {
      const response = await request(management.url).post(`${V2}/organization`).set('Authorization', `Bearer ${app.apiKey}`).set('Content-Type', 'application/json').send(nestedObject(2000));
      expectProblem(response, { status: 400, code: 'malformed_body', detail: 'The request is nested more than 32 levels deep', instance: `${V2}/organization` });
    });

    it('is refused with invalid_request by authenticate_direct, and other JSON requests still work', async () => {
      const response = await request(auth.url).post('/api/v1/authenticate_direct').set('Authorization', basicAuth(app)).set('Content-Type', 'application/json').send(nestedObject(2000));
      expectOAuthError(response, 400, 'invalid_request');
      await call(management.url, 'post', '/organization', app.apiKey, { name: 'After nesting' }).expect(201);
    });
  });

  describe('control characters', () => {
    it('a NUL in an organization name is a validation error and creates nothing', async () => {
      const response = await call(management.url, 'post', '/organization', app.apiKey, { name: 'Acme\u0000Corp' });
      expectProblem(response, { ...validationProblem([{ field: 'name', messages: ['name must not contain control characters'] }]), instance: `${V2}/organization` });
    });

    it('a NUL in authenticate_direct state is invalid_request', async () => {
      const response = await authenticateDirect(auth.url, app, { email: uniqueEmail('nul'), redirect_uri: REDIRECT_URI, state: 'st\u0000ate', code_challenge: pkcePair().challenge, code_challenge_method: 'S256' });
      expectOAuthError(response, 400, 'invalid_request', 'state must not contain control characters');
    });

    it('a NUL in the hosted form is refused with 400', async () => {
      const form = await openAuthorize(auth.url, { response_type: 'code', client_id: app.clientId, redirect_uri: REDIRECT_URI, state: 'fine', code_challenge: pkcePair().challenge, code_challenge_method: 'S256' });
      const response = await submitEmail(auth.url, { ...form, fields: { ...form.fields, state: 'fi\u0000ne' } }, uniqueEmail('hosted-nul'));
      expect(response.status).toBe(400);
    });

    it('tabs and line breaks are still accepted where text is free', async () => {
      await call(management.url, 'post', '/organization', app.apiKey, { name: 'Tab\tand\nnewline' }).expect(201);
    });
  });

  describe('an update whose body the API cannot read', () => {
    it.each([
      ['text/plain', 'text/plain', '{"name":"Changed"}'],
      ['XML', 'application/xml', '<organization><name>Changed</name></organization>'],
      ['multipart', 'multipart/form-data; boundary=b', '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nChanged\r\n--b--\r\n'],
      ['a form', 'application/x-www-form-urlencoded', 'name=Changed'],
    ])('%s is 415 and changes nothing', async (_, contentType, body) => {
      const path = `${V2}/organization/${app.organizationId}`;
      const before = (await call(management.url, 'get', path, app.apiKey).expect(200)).body;
      const response = await request(management.url).post(path).set('Authorization', `Bearer ${app.apiKey}`).set('Content-Type', contentType).send(body);
      expectProblem(response, { status: 415, code: 'unsupported_media_type', detail: 'Unsupported content type', instance: path });
      expect((await call(management.url, 'get', path, app.apiKey).expect(200)).body).toEqual(before);
    });

    it('without a content type is 415 and changes nothing', async () => {
      const path = `${V2}/organization/${app.organizationId}`;
      const before = (await call(management.url, 'get', path, app.apiKey).expect(200)).body;
      // supertest always adds a content type to a body; Node's http sends exactly these headers.
      const payload = '{"name":"Changed"}';
      const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const headers = { Authorization: `Bearer ${app.apiKey}`, 'Content-Length': String(payload.length) };
        const outgoing = rawRequest(new URL(path, management.url), { method: 'POST', headers }, (incoming) => {
          let body = '';
          incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
          incoming.on('end', () => resolve({ status: incoming.statusCode!, body }));
        });
        outgoing.on('error', reject);
        outgoing.end(payload);
      });
      expect([response.status, JSON.parse(response.body).code]).toEqual([415, 'unsupported_media_type']);
      expect((await call(management.url, 'get', path, app.apiKey).expect(200)).body).toEqual(before);
    });

    it('a JSON update still works', async () => {
      await call(management.url, 'post', `/organization/${app.organizationId}`, app.apiKey, { name: 'Renamed' }).expect(200);
    });
  });

  it('the auth API never answers 5xx', async () => {
    expect(await serverErrors(auth, {}, [basicAuth(app)])).toEqual([]);
  }, 120_000);

  it('the management API never answers 5xx, with a platform or a tenant key', async () => {
    // Its own tenant: the sweep's bodiless POSTs and DELETEs rotate secrets and delete what they reach.
    const tenant = await createTenant(management.url);
    const target = await createApplication(management.url, await createOrganization(management.url, tenant), { type: 'web' });
    const user = await call(management.url, 'post', `/organization/${target.organizationId}/user`, target.apiKey, { email: uniqueEmail('hostile') }).expect(201);
    const ids = { id: target.organizationId, organizationId: target.organizationId, applicationId: target.applicationId, tenantId: target.tenantId, userId: user.body.id };
    expect(await serverErrors(management, ids, [`Bearer ${PLATFORM_KEY}`, `Bearer ${target.apiKey}`])).toEqual([]);
  }, 120_000);
});
