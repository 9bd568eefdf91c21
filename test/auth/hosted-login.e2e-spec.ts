import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { followLink, pkcePair, uniqueEmail } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';

function hiddenFields(page: string): Record<string, string> {
  return Object.fromEntries(
    [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1], match[2].replace(/&amp;/g, '&')]),
  );
}

describe('hosted login page', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let desktop: ApplicationFixture;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    const tenant = await createTenant(stack.management.url, 'free');
    const organization = await createOrganization(stack.management.url, tenant, { name: 'Acme Desktop' });
    desktop = await createApplication(stack.management.url, organization, { type: 'desktop', callbackUrls: ['http://127.0.0.1/callback'] });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  it('signs a desktop app user in through the form, the e-mailed link and PKCE on a random loopback port', async () => {
    const { verifier, challenge } = pkcePair();
    const redirectUri = 'http://127.0.0.1:53123/callback';
    const query = {
      response_type: 'code',
      client_id: desktop.clientId,
      redirect_uri: redirectUri,
      state: 'xyz',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const form = await request(stack.auth.url).get('/api/v1/authorize').query(query).expect(200);
    expect(form.text).toContain('Sign in to Acme Desktop');
    const cookie = form.headers['set-cookie'][0].split(';')[0];
    const email = uniqueEmail('desk');

    const sent = await request(stack.auth.url)
      .post('/api/v1/authorize')
      .set('Cookie', cookie)
      .type('form')
      .send({ ...hiddenFields(form.text), email })
      .expect(200);
    expect(sent.text).toContain('Check your inbox');

    const callback = await followLink(stack, smtp, email);
    expect(`${callback.origin}${callback.pathname}`).toBe('http://127.0.0.1:53123/callback');
    expect(callback.searchParams.get('state')).toBe('xyz');

    const tokens = await request(stack.auth.url)
      .post('/api/v1/verify')
      .type('form')
      .send({ client_id: desktop.clientId, code: callback.searchParams.get('code'), redirect_uri: redirectUri, code_verifier: verifier })
      .expect(200);
    expect(tokens.body.id_token.split('.')).toHaveLength(3);
    await request(stack.auth.url).get('/api/v1/userinfo').set('Authorization', `Bearer ${tokens.body.access_token}`).expect(200);
  });

  it('refuses a form post without the CSRF cookie', async () => {
    const { challenge } = pkcePair();
    const query = {
      response_type: 'code',
      client_id: desktop.clientId,
      redirect_uri: 'http://127.0.0.1:40000/callback',
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const form = await request(stack.auth.url).get('/api/v1/authorize').query(query).expect(200);
    await request(stack.auth.url)
      .post('/api/v1/authorize')
      .type('form')
      .send({ ...hiddenFields(form.text), email: uniqueEmail() })
      .expect(403);
  });
});
