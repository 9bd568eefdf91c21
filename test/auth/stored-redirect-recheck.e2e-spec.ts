import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant, TenantFixture } from '../support/fixtures';
import { basicAuth, uniqueEmail } from '../support/login';
import { linkIn, SmtpSink } from '../support/smtp-sink';

/**
 * A redirect_uri is checked when the login starts, and again when the browser is about to be sent
 * there: removing a whitelist domain or a callback URL takes effect for links already e-mailed and
 * for autologin walks under way.
 */
describe('stored redirect_uris are checked again when used', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let tenant: TenantFixture;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    tenant = await createTenant(stack.management.url, 'pro');
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  const updateOrganization = (app: ApplicationFixture, body: Record<string, unknown>) =>
    request(stack.management.url)
      .post(`/api/v2/organization/${app.organizationId}`)
      .set('Authorization', `Bearer ${app.apiKey}`)
      .send(body)
      .expect(200);
  const updateApplication = (app: ApplicationFixture, body: Record<string, unknown>) =>
    request(stack.management.url)
      .post(`/api/v2/organization/${app.organizationId}/application/${app.applicationId}`)
      .set('Authorization', `Bearer ${app.apiKey}`)
      .send(body)
      .expect(200);

  async function mailedLink(app: ApplicationFixture, redirectUri: string): Promise<string> {
    const email = uniqueEmail('recheck');
    await request(stack.auth.url)
      .post('/api/v1/authenticate_direct')
      .set('Authorization', basicAuth(app))
      .send({ email, redirect_uri: redirectUri, state: 's' })
      .expect(200);
    return new URL(linkIn(await smtp.next(email))).searchParams.get('token')!;
  }
  const press = (token: string) => request(stack.auth.url).post('/api/v1/login_link').type('form').send({ token });

  function expectNoLongerAllowed(response: request.Response): void {
    expect(response.status).toBe(400);
    expect(response.headers.location).toBeUndefined();
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  }

  it('a whitelist domain removed after the e-mail was sent: the link shows an error page, stays unused, and works once the domain is back', async () => {
    const organization = await createOrganization(stack.management.url, tenant, {
      whitelistDomains: ['http://localhost:4000', 'https://shop.example.com'],
    });
    const app = await createApplication(stack.management.url, organization, { type: 'web' });
    const token = await mailedLink(app, 'https://shop.example.com/cb');
    await updateOrganization(app, { whitelistDomains: ['http://localhost:4000'] });
    expectNoLongerAllowed(await press(token));
    expect((await request(stack.auth.url).get('/api/v1/login_link').query({ token }).expect(200)).text).toContain('Continue');

    await updateOrganization(app, { whitelistDomains: ['http://localhost:4000', 'https://shop.example.com'] });
    const used = await press(token).expect(303);
    expect(new URL(used.headers.location).origin).toBe('https://shop.example.com');

    // A used link sends its error back only to an address still allowed.
    await updateOrganization(app, { whitelistDomains: ['http://localhost:4000'] });
    expectNoLongerAllowed(await press(token));
  });

  it('a callback URL removed after the e-mail was sent', async () => {
    const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['http://localhost:4000'] });
    const app = await createApplication(stack.management.url, organization, {
      type: 'web',
      callbackUrls: ['http://localhost:4000/a', 'http://localhost:4000/b'],
    });
    const token = await mailedLink(app, 'http://localhost:4000/b');
    await updateApplication(app, { callbackUrls: ['http://localhost:4000/a'] });
    expectNoLongerAllowed(await press(token));
  });

  it('an autologin walk skips a domain removed while it runs, and does not end at a removed redirect_uri', async () => {
    const domains = ['http://localhost:4000', 'http://127.0.0.1:4001', 'https://shop.example.com'];
    const organization = await createOrganization(stack.management.url, tenant, { autologin: true, whitelistDomains: domains });
    const app = await createApplication(stack.management.url, organization, { type: 'web' });

    const start = async () => {
      const pressed = await press(await mailedLink(app, 'http://localhost:4000/callback')).expect(303);
      return { stop: new URL(pressed.headers.location), cookie: String(pressed.headers['set-cookie'][0]).split(';')[0] };
    };
    const next = (stop: URL, cookie: string) =>
      request(stack.auth.url)
        .get(`/api/v1/autologin${new URL(stop.searchParams.get('autologin_continue')!).search}`)
        .set('Cookie', cookie);

    const walk = await start();
    expect(walk.stop.origin).toBe('http://127.0.0.1:4001');
    await updateOrganization(app, { whitelistDomains: ['http://localhost:4000', 'http://127.0.0.1:4001'] });
    const end = new URL((await next(walk.stop, walk.cookie).expect(303)).headers.location);
    expect(`${end.origin}${end.pathname}`).toBe('http://localhost:4000/callback');
    expect(end.searchParams.get('autologin_continue')).toBeNull();

    await updateOrganization(app, { whitelistDomains: domains });
    const other = await start();
    await updateOrganization(app, { whitelistDomains: ['http://127.0.0.1:4001', 'https://shop.example.com'] });
    const shop = new URL((await next(other.stop, other.cookie).expect(303)).headers.location);
    expect(shop.origin).toBe('https://shop.example.com');
    expectNoLongerAllowed(await next(shop, other.cookie));
  });
});
