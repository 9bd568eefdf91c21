import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth } from '../support/login';
import { linkIn, SmtpSink } from '../support/smtp-sink';

const REDIRECT_URI = 'http://localhost:4000/callback';

describe('direct authentication, end to end', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let app: ApplicationFixture;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, {
      name: 'Acme Shop',
      whitelistDomains: ['http://localhost:4000'],
    });
    app = await createApplication(stack.management.url, organization, { type: 'web' });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  it('e-mails a link that shows the attempt, survives being looked at, and logs in once', async () => {
    const email = 'Ada.Lovelace@Example.com';
    const started = await request(stack.auth.url)
      .post('/api/v1/authenticate_direct')
      .set('Authorization', basicAuth(app))
      .send({
        email,
        redirect_uri: REDIRECT_URI,
        state: 'state-123',
        translations: { subject: 'Ihr Link für {organization}', button: 'Anmelden <jetzt>' },
      })
      .expect(200);
    expect(Object.keys(started.body).sort()).toEqual(['allowedDate', 'approvalNumber', 'loginAttemptId', 'sentence', 'token']);
    expect(started.body.token).toMatch(/^[0-9a-f]{64}$/);

    const mail = await smtp.next('ada.lovelace@example.com');
    expect(mail.subject).toBe('Ihr Link für Acme Shop');
    expect(mail.text).toContain('Anmelden <jetzt>');
    expect(mail.html).toContain('Anmelden &lt;jetzt&gt;');
    expect(mail.text).toContain(started.body.sentence);
    expect(mail.html).toContain(started.body.sentence);

    const link = new URL(linkIn(mail));
    const token = link.searchParams.get('token')!;
    for (let look = 0; look < 2; look++) {
      const page = await request(stack.auth.url).get(`/api/v1/login_link?token=${token}`).expect(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['referrer-policy']).toBe('same-origin'); // the Continue post carries Sesame's origin; nothing leaves for elsewhere
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['content-security-policy']).toContain("form-action 'self' http://localhost:4000");
      expect(page.text).toContain(started.body.sentence);
      expect(page.text).toContain('Acme Shop');
    }

    const used = await request(stack.auth.url).post('/api/v1/login_link').type('form').send({ token }).expect(303);
    const callback = new URL(used.headers.location);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe('state-123');
    expect(callback.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const again = await request(stack.auth.url).post('/api/v1/login_link').type('form').send({ token }).expect(303);
    const refused = new URL(again.headers.location);
    expect(refused.searchParams.get('error')).toBe('login_link_used');
    expect(refused.searchParams.get('state')).toBe('state-123');
    expect(refused.searchParams.get('code')).toBeNull();

    const status = await request(stack.auth.url)
      .get(`/api/v1/login_attempt/${started.body.loginAttemptId}`)
      .set('Authorization', basicAuth(app))
      .expect(200);
    expect(status.body.status).toBe('completed');
  });
});
