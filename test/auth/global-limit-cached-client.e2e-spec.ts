import request from 'supertest';
import { RunningApp, startAuthApi, startManagementApi } from '../support/apps';
import { ApplicationFixture, createWebApplication } from '../support/fixtures';
import { basicAuth } from '../support/login';

/**
 * On a client-authenticated route, a client the instance's cache holds has its per-IP check sent to
 * Redis with the tenant's endpoint limit, in one call. What an attacker on one address must not
 * gain from that: requests beyond GLOBAL_RATE_LIMIT, or secret guesses that are never counted.
 */
describe('the per-IP limit on client-authenticated routes, clients in the cache', () => {
  let management: RunningApp;
  /** GLOBAL_RATE_LIMIT 3, the client cache on (tests run without it), behind a trusted proxy: each test is its own address. */
  let auth: RunningApp;
  let app: ApplicationFixture;

  beforeAll(async () => {
    management = await startManagementApi();
    auth = await startAuthApi({ env: { GLOBAL_RATE_LIMIT: '3', TRUST_PROXY: 'loopback', CLIENT_CACHE_SECONDS: '60' } });
    app = await createWebApplication(management.url);
  });

  afterAll(async () => {
    await auth?.close();
    await management?.close();
  });

  const verify = (address: string, authorization: string, type: 'form' | 'json' = 'form') =>
    request(auth.url)
      .post('/api/v1/verify')
      .set('X-Forwarded-For', address)
      .set('Authorization', authorization)
      .type(type)
      .send({ code: 'no-such-code', redirect_uri: 'http://localhost:4000/callback' });

  function expectGlobalLimit(response: request.Response): void {
    expect(response.status).toBe(429);
    expect(response.body.error).toBe('rate_limited');
    expect(response.body.error_description).toMatch(/^Too many requests from this address: at most 3 per minute/);
  }

  it('holds for a client the cache holds: the fourth request of a minute is refused with the per-IP answer', async () => {
    for (let i = 0; i < 3; i++) expect((await verify('198.51.100.1', basicAuth(app))).body.error).toBe('invalid_grant');
    expectGlobalLimit(await verify('198.51.100.1', basicAuth(app)));
  });

  it('counts wrong secrets of a cached client before refusing them: guesses stop at the limit', async () => {
    await verify('198.51.100.2', basicAuth(app)).expect(400); // the client is in the cache now
    for (let i = 0; i < 2; i++)
      expect((await verify('198.51.100.2', basicAuth(app, 'cs_a-guess')).expect(401)).body.error).toBe('invalid_client');
    expectGlobalLimit(await verify('198.51.100.2', basicAuth(app, 'cs_a-guess')));
    expectGlobalLimit(await verify('198.51.100.2', basicAuth(app)));
  });

  it('counts a body the route refuses before refusing it', async () => {
    await verify('198.51.100.3', basicAuth(app)).expect(400);
    for (let i = 0; i < 2; i++)
      expect((await verify('198.51.100.3', basicAuth(app), 'json').expect(400)).body.error).toBe('invalid_request');
    expectGlobalLimit(await verify('198.51.100.3', basicAuth(app), 'json'));
  });
});
