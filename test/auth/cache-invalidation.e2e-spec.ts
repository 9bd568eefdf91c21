import { CacheInvalidation, CacheInvalidationBus, ManualClock } from '@sesame/common';
import request from 'supertest';
import { RunningApp, startManagementApi, startPublicAuthApi } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth, uniqueEmail } from '../support/login';
import { authenticateDirect, expectOAuthError } from '../support/direct-auth';
import { PLATFORM_KEY } from '../support/management';

/** Long enough that no cache entry expires during the file: only an invalidation can drop one (the clock never moves). */
const CACHE_ENV = { CLIENT_CACHE_SECONDS: '60', API_KEY_CACHE_SECONDS: '60', MAIL_SWEEP_INTERVAL_SECONDS: '3600' };
const SOME_ATTEMPT = '00000000-0000-4000-8000-000000000000';

/**
 * Two auth-api instances behind one management API, on the same Redis: a secret rotated without
 * overlap, a deleted application and a plan change reach both at once, through the invalidation bus,
 * not through the cache time. Each test waits for the message to reach both instances (their caches
 * handle it before a later subscriber sees it), never for time to pass.
 */
describe('cache invalidation across auth-api instances', () => {
  const clock = new ManualClock();
  let management: RunningApp;
  let instances: RunningApp[];

  beforeAll(async () => {
    management = await startManagementApi({ clock, env: CACHE_ENV });
    instances = [(await startPublicAuthApi({ clock, env: CACHE_ENV })).auth, (await startPublicAuthApi({ clock, env: CACHE_ENV })).auth];
  });

  afterAll(async () => {
    for (const instance of instances ?? []) await instance.close();
    await management?.close();
  });

  /** Resolves when a message matching `matches` has reached every instance (after their caches have handled it). */
  function reachingEveryInstance(matches: (message: CacheInvalidation) => boolean): Promise<void> {
    return Promise.all(
      instances.map(
        (instance) =>
          new Promise<void>((resolve) => instance.app.get(CacheInvalidationBus).subscribe((message) => matches(message) && resolve())),
      ),
    ).then(() => undefined);
  }

  /** A client-authenticated call that answers 404 (unknown attempt) when the client authenticates, 401 when not. */
  const status = (instance: RunningApp, app: ApplicationFixture, secret = app.clientSecret!) =>
    request(instance.url)
      .get(`/api/v1/login_attempt/${SOME_ATTEMPT}`)
      .set('Authorization', basicAuth({ clientId: app.clientId, clientSecret: secret }));

  async function webApp(plan = 'pro'): Promise<ApplicationFixture> {
    const organization = await createOrganization(management.url, await createTenant(management.url, plan), {
      whitelistDomains: ['https://app.example.com'],
    });
    const app = await createApplication(management.url, organization, { type: 'web' });
    for (const instance of instances) await status(instance, app).expect(404); // looked up, and cached for 60 s
    return app;
  }

  const applicationPath = (app: ApplicationFixture) => `/api/v2/organization/${app.organizationId}/application/${app.applicationId}`;

  it('a secret rotated with overlapSeconds 0 is refused on both instances at once; the new one works', async () => {
    const app = await webApp();
    const reached = reachingEveryInstance((message) => message.kind === 'application' && message.applicationId === app.applicationId);
    const rotated = await request(management.url)
      .post(`${applicationPath(app)}/rotate_secret`)
      .set('Authorization', `Bearer ${app.apiKey}`)
      .send({ overlapSeconds: 0 })
      .expect(200);
    await reached;
    for (const instance of instances) {
      await status(instance, app).expect(401);
      await status(instance, app, rotated.body.clientSecret).expect(404);
    }
  });

  it('a deleted application is refused on both instances at once', async () => {
    const app = await webApp();
    const reached = reachingEveryInstance((message) => message.kind === 'application' && message.applicationId === app.applicationId);
    await request(management.url).delete(applicationPath(app)).set('Authorization', `Bearer ${app.apiKey}`).expect(204);
    await reached;
    for (const instance of instances) await status(instance, app).expect(401);
  });

  it('a plan change is seen by both instances at once', async () => {
    const app = await webApp('pro');
    // On Pro, direct authentication gets as far as the redirect_uri check; on Basic it is refused for the plan.
    const direct = (instance: RunningApp) =>
      authenticateDirect(instance.url, app, { email: uniqueEmail('plan'), redirect_uri: 'https://elsewhere.example/cb', state: 's' });
    for (const instance of instances) expectOAuthError(await direct(instance), 400, 'invalid_request');
    const reached = reachingEveryInstance((message) => message.kind === 'tenant' && message.tenantId === app.tenantId);
    await request(management.url)
      .post(`/api/v2/tenant/${app.tenantId}`)
      .set('Authorization', `Bearer ${PLATFORM_KEY}`)
      .send({ plan: 'basic' })
      .expect(200);
    await reached;
    for (const instance of instances) expectOAuthError(await direct(instance), 403, 'plan_not_supported');
  });
});
