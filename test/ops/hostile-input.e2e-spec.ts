import { request as rawRequest } from 'node:http';
import request from 'supertest';
import { registeredRoutes, RunningApp, startAuthApi, startManagementApi } from '../support/apps';
import { authenticateDirect, expectOAuthError } from '../support/direct-auth';
import { HOSTILE_INPUTS, nestedObject, sendHostile, STACK_TRACE } from '../support/hostile-inputs';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { openAuthorize, submitEmail } from '../support/hosted-login';
import { basicAuth, pkcePair, uniqueEmail } from '../support/login';
import { call, expectProblem, PLATFORM_KEY, UNTHROTTLED_ENV, V2, validationProblem } from '../support/management';

const REDIRECT_URI = 'http://localhost:4000/callback';
const ENV = {
  ...UNTHROTTLED_ENV,
  ENDPOINT_LIMITS: JSON.stringify({ free: 100000, basic: 100000, pro: 100000, enterprise: 100000 }),
  PAGE_RATE_LIMIT: '100000',
};

function concrete(route: string, ids: Record<string, string>): { method: string; path: string } {
  const [method, path] = route.split(' ');
  return { method, path: path.replace(/:(\w+)/g, (_, name: string) => ids[name] ?? '00000000-0000-4000-8000-000000000000') };
}

/** Every request that answered 5xx, as "METHOD path (hostile input): status". */
async function serverErrors(app: RunningApp, ids: Record<string, string>, authorizations: string[]): Promise<string[]> {
  const failures: string[] = [];
  for (const route of registeredRoutes(app)) {
    const { method, path } = concrete(route, ids);
    for (const hostile of HOSTILE_INPUTS) {
      for (const authorization of authorizations) {
        const response = await sendHostile(app.url, method, path, authorization, hostile);
        if (response && response.status >= 500)
          failures.push(`${method} ${path} (${hostile.label}): ${response.status} ${response.text.slice(0, 200)}`);
        if (response && response.status >= 400) expect(response.text).not.toMatch(STACK_TRACE);
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
      const response = await request(management.url)
        .post(`${V2}/organization`)
        .set('Authorization', `Bearer ${app.apiKey}`)
        .set('Content-Type', 'application/json')
        .send(nestedObject(2000));
      expectProblem(response, {
        status: 400,
        code: 'malformed_body',
        detail: 'The request is nested more than 32 levels deep',
        instance: `${V2}/organization`,
      });
    });

    it('is refused with invalid_request by authenticate_direct, and other JSON requests still work', async () => {
      const response = await request(auth.url)
        .post('/api/v1/authenticate_direct')
        .set('Authorization', basicAuth(app))
        .set('Content-Type', 'application/json')
        .send(nestedObject(2000));
      expectOAuthError(response, 400, 'invalid_request');
      await call(management.url, 'post', '/organization', app.apiKey, { name: 'After nesting' }).expect(201);
    });
  });

  describe('control characters', () => {
    it('a NUL in an organization name is a validation error and creates nothing', async () => {
      const response = await call(management.url, 'post', '/organization', app.apiKey, { name: 'Acme\u0000Corp' });
      expectProblem(response, {
        ...validationProblem([{ field: 'name', messages: ['name must not contain control characters'] }]),
        instance: `${V2}/organization`,
      });
    });

    it('a NUL in authenticate_direct state is invalid_request', async () => {
      const response = await authenticateDirect(auth.url, app, {
        email: uniqueEmail('nul'),
        redirect_uri: REDIRECT_URI,
        state: 'st\u0000ate',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      });
      expectOAuthError(response, 400, 'invalid_request', 'state must not contain control characters');
    });

    it('a NUL in the hosted form is refused with 400', async () => {
      const form = await openAuthorize(auth.url, {
        response_type: 'code',
        client_id: app.clientId,
        redirect_uri: REDIRECT_URI,
        state: 'fine',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      });
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
      const response = await request(management.url)
        .post(path)
        .set('Authorization', `Bearer ${app.apiKey}`)
        .set('Content-Type', contentType)
        .send(body);
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
    const user = await call(management.url, 'post', `/organization/${target.organizationId}/user`, target.apiKey, {
      email: uniqueEmail('hostile'),
    }).expect(201);
    const ids = {
      id: target.organizationId,
      organizationId: target.organizationId,
      applicationId: target.applicationId,
      tenantId: target.tenantId,
      userId: user.body.id,
    };
    expect(await serverErrors(management, ids, [`Bearer ${PLATFORM_KEY}`, `Bearer ${target.apiKey}`])).toEqual([]);
  }, 120_000);
});
