import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth, loginByLink, pkcePair } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';

describe('autologin across whitelist domains', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let app: ApplicationFixture;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, {
      autologin: true,
      whitelistDomains: ['http://localhost:4000', 'http://127.0.0.1:4001', 'https://shop.example.com'],
    });
    app = await createApplication(stack.management.url, organization, { type: 'web' });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  function exchange(code: string, redirectUri: string, verifier?: string) {
    return request(stack.auth.url)
      .post('/api/v1/verify')
      .set('Authorization', basicAuth(app))
      .type('form')
      .send({ code, redirect_uri: redirectUri, ...(verifier ? { code_verifier: verifier } : {}) });
  }

  it('walks through every other domain with a fresh code and the same state, then ends at the original redirect_uri', async () => {
    const { verifier, challenge } = pkcePair();
    const first = await loginByLink(stack, smtp, app, { redirectUri: 'http://localhost:4000/callback', state: 'walk-state', codeChallenge: challenge });
    expect(`${first.origin}${first.pathname}`).toBe('http://127.0.0.1:4001/callback');
    expect(first.searchParams.get('state')).toBe('walk-state');
    const firstContinue = new URL(first.searchParams.get('autologin_continue')!);
    expect(`${firstContinue.origin}${firstContinue.pathname}`).toBe(`${stack.auth.config.http.publicBaseUrl}/v1/autologin`);
    await exchange(first.searchParams.get('code')!, 'http://127.0.0.1:4001/callback').expect(200);

    const second = new URL((await request(stack.auth.url).get(`/api/v1/autologin${firstContinue.search}`).expect(303)).headers.location);
    expect(`${second.origin}${second.pathname}`).toBe('https://shop.example.com/callback');
    expect(second.searchParams.get('state')).toBe('walk-state');
    await exchange(second.searchParams.get('code')!, 'https://shop.example.com/callback').expect(200);

    // A continuation works once.
    await request(stack.auth.url).get(`/api/v1/autologin${firstContinue.search}`).expect(404);

    const secondContinue = new URL(second.searchParams.get('autologin_continue')!);
    const last = new URL((await request(stack.auth.url).get(`/api/v1/autologin${secondContinue.search}`).expect(303)).headers.location);
    expect(`${last.origin}${last.pathname}`).toBe('http://localhost:4000/callback');
    expect(last.searchParams.get('state')).toBe('walk-state');
    expect(last.searchParams.get('autologin_continue')).toBeNull();
    // The original domain's code keeps the PKCE binding of the login it started.
    await exchange(last.searchParams.get('code')!, 'http://localhost:4000/callback', verifier).expect(200);
  });
});
