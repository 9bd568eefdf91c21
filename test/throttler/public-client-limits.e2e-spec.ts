import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';
import { ownRedisPrefix } from './support';

const LIMIT = 5;
const BOGUS_CODE = 'A'.repeat(43);

/**
 * A native app authenticates with its client_id alone, which anyone can read from the app. Its
 * requests to /v1/verify and /v1/revoke are counted per tenant and client IP, so an attacker who
 * knows it cannot use up the endpoint budget of every application of the tenant, nor of the
 * app's own users elsewhere. (Client addresses come from X-Forwarded-For: TRUST_PROXY=loopback.)
 */
describe('endpoint limits of public clients', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let web: ApplicationFixture;
  let native: ApplicationFixture;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url, {
      env: { ENDPOINT_LIMITS: JSON.stringify({ free: LIMIT }), TRUST_PROXY: 'loopback', REDIS_PREFIX: ownRedisPrefix() },
    });
    const tenant = await createTenant(stack.management.url, 'free');
    const organization = await createOrganization(stack.management.url, tenant);
    web = await createApplication(stack.management.url, organization, { type: 'web' });
    native = await createApplication(stack.management.url, organization, { type: 'desktop', callbackUrls: ['http://127.0.0.1/callback'] });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  const post = (path: string, from: string, form: Record<string, string>, authorization?: string) => {
    const call = request(stack.auth.url).post(`/api/v1/${path}`).set('X-Forwarded-For', from).type('form');
    return (authorization ? call.set('Authorization', authorization) : call).send(form);
  };
  const nativeVerify = (from: string) =>
    post('verify', from, {
      client_id: native.clientId,
      code: BOGUS_CODE,
      redirect_uri: 'http://127.0.0.1/callback',
      code_verifier: 'v'.repeat(43),
    });
  const webVerify = (from: string) =>
    post('verify', from, { code: BOGUS_CODE, redirect_uri: 'http://localhost:4000/callback' }, basicAuth(web));

  it.each([
    ['verify', nativeVerify, webVerify],
    [
      'revoke',
      (from: string) => post('revoke', from, { client_id: native.clientId, token: BOGUS_CODE }),
      (from: string) => post('revoke', from, { token: BOGUS_CODE }, basicAuth(web)),
    ],
  ])('/v1/%s: flooding with the native app’s client_id exhausts only that address’s budget', async (_, asNative, asWeb) => {
    const attacker = '198.51.100.7';
    for (let i = 0; i < LIMIT; i++) expect((await asNative(attacker)).status).not.toBe(429);
    const refused = await asNative(attacker);
    expect([refused.status, refused.body.error]).toEqual([429, 'rate_limited']);
    expect(refused.body.error_description).toMatch(/for the tenant from this address/);

    // The web app of the same tenant, even from the attacker's address, and the native app's users elsewhere, go on.
    expect((await asWeb(attacker)).status).not.toBe(429);
    expect((await asWeb('203.0.113.20')).status).not.toBe(429);
    expect((await asNative('203.0.113.21')).status).not.toBe(429);
  });

  it('a web app (confidential client) still shares one budget per tenant, whatever the address', async () => {
    // Two of the tenant's verify requests were the web app's in the test above.
    for (let i = 0; i < LIMIT - 2; i++) expect((await webVerify(`192.0.2.${i + 1}`)).status).not.toBe(429);
    const refused = await webVerify('192.0.2.200');
    expect([refused.status, refused.body.error]).toEqual([429, 'rate_limited']);
  });
});
