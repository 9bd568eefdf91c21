import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import createClient from 'openapi-fetch';
import request from 'supertest';
import type { paths as ManagementApi } from '../../apps/console/web/src/api/management-api';
import { startStack, Stack } from '../support/apps';
import { uniqueEmail } from '../support/login';
import { PLATFORM_KEY } from '../support/management';
import { typesOf } from '../support/openapi-types';
import { codeIn, SmtpSink } from '../support/smtp-sink';
import type { paths as AuthApi } from './generated/auth-api';

const AUTH_API_TYPES = join(__dirname, 'generated/auth-api.d.ts');
const REDIRECT_URI = 'http://localhost:4000/callback';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const basic = (clientId: string, clientSecret: string) => ({
  Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
});

/**
 * A client generated from the documents (openapi-typescript's types, openapi-fetch's calls) does
 * what the README does: an operator creates a tenant, an organization and a web application with
 * the management API; the application logs a user in with the auth API. The types of the auth API
 * are committed in ./generated (`npm run openapi:client-types` writes them anew), those of the
 * management API are the console's (test/openapi/console-api-types.e2e-spec.ts); `npm run lint`
 * type-checks this file against both, so a document that a generated client cannot use (a
 * missing body, a wrong answer type) fails here, at compile time or when it runs.
 */
describe('a client generated from the OpenAPI documents', () => {
  const smtp = new SmtpSink();
  let stack: Stack;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
  });

  afterAll(async () => {
    await stack?.close();
    await smtp.stop();
  });

  it('has the committed types of the auth API’s current document', async () => {
    const generated = await typesOf((await request(stack.auth.url).get('/api/v1/openapi.json').expect(200)).body);
    if (process.env.UPDATE_API_TYPES === '1') writeFileSync(AUTH_API_TYPES, generated);
    expect(readFileSync(AUTH_API_TYPES, 'utf8')).toBe(generated);
  });

  it('sets up an application with the management API and logs a user in with the auth API', async () => {
    const management = createClient<ManagementApi>({ baseUrl: stack.management.url });
    const tenant = await management.POST('/api/v2/tenant', {
      headers: bearer(PLATFORM_KEY),
      body: { name: `Generated ${process.pid}`, plan: 'pro' },
    });
    expect(tenant.response.status).toBe(201);
    const tenantKey = tenant.data!.apiKey.key;
    const organization = await management.POST('/api/v2/organization', {
      headers: bearer(tenantKey),
      body: { name: 'Generated Shop', whitelistDomains: ['http://localhost:4000'] },
    });
    expect(organization.response.status).toBe(201);
    const application = await management.POST('/api/v2/organization/{organizationId}/application', {
      params: { path: { organizationId: organization.data!.id } },
      headers: bearer(tenantKey),
      body: { name: 'Generated web app', type: 'web' },
    });
    expect(application.response.status).toBe(201);
    const client = basic(application.data!.clientId, application.data!.clientSecret!);

    const auth = createClient<AuthApi>({ baseUrl: stack.auth.url });
    const email = uniqueEmail('generated');
    const started = await auth.POST('/api/v1/authenticate_direct', {
      headers: client,
      body: { email, redirect_uri: REDIRECT_URI, state: 'generated-state' },
    });
    expect(started.response.status).toBe(200);
    const mail = await smtp.next(email);
    expect(mail.text).toContain(started.data!.sentence);

    const completed = await auth.POST('/api/v1/login_code', {
      headers: client,
      body: { loginAttemptId: started.data!.loginAttemptId, code: codeIn(mail) },
    });
    expect(completed.data).toEqual({ code: expect.any(String), state: 'generated-state', redirectUri: REDIRECT_URI });

    const tokens = await auth.POST('/api/v1/verify', {
      headers: { ...client, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: { grant_type: 'authorization_code', code: completed.data!.code, redirect_uri: completed.data!.redirectUri },
      // openapi-fetch form-encodes by itself when it sees the Content-Type, but its check
      // (`instanceof Function`) fails across Jest's sandbox; in an application it is not needed.
      bodySerializer: (form) => new URLSearchParams(form).toString(),
    });
    expect(tokens.error).toBeUndefined();
    expect(tokens.data).toEqual(expect.objectContaining({ access_token: expect.any(String), token_type: 'Bearer' }));

    const user = await auth.GET('/api/v1/userinfo', { headers: bearer(tokens.data!.access_token) });
    expect(user.data).toEqual(expect.objectContaining({ email, email_verified: true }));

    // The types are the document's: a call it does not allow does not compile, and the API refuses it too.
    const refused = await auth.POST('/api/v1/authenticate_direct', {
      headers: client,
      // @ts-expect-error: `email` is required.
      body: { redirect_uri: REDIRECT_URI, state: 'no-email' },
    });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toEqual(expect.objectContaining({ error: 'invalid_request' }));
  });
});
