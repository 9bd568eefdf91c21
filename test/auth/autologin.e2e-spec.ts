import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { hostedLogin } from '../support/hosted-login';
import { basicAuth, pkcePair, uniqueEmail } from '../support/login';
import { linkIn, SmtpSink } from '../support/smtp-sink';

const DOMAINS = ['http://localhost:4000', 'http://127.0.0.1:4001', 'https://shop.example.com'];

describe('autologin across whitelist domains', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let app: ApplicationFixture;
  /** A web app of an organization without autologin: its codes are never walk codes. */
  let plain: ApplicationFixture;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, { autologin: true, whitelistDomains: DOMAINS });
    app = await createApplication(stack.management.url, organization, { type: 'web' });
    plain = await createApplication(
      stack.management.url,
      await createOrganization(stack.management.url, tenant, { whitelistDomains: DOMAINS }),
      { type: 'web' },
    );
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  function exchange(code: string, redirectUri: string, extra: Record<string, string> = {}) {
    return request(stack.auth.url)
      .post('/api/v1/verify')
      .set('Authorization', basicAuth(app))
      .type('form')
      .send({ code, redirect_uri: redirectUri, ...extra });
  }

  /** Direct authentication, then Continue on the link: the first stop, and the walk cookie the browser got. */
  async function startWalk(redirectUri = 'http://localhost:4000/callback', state = 'walk-state') {
    const { verifier, challenge } = pkcePair();
    const email = uniqueEmail('walk');
    await request(stack.auth.url)
      .post('/api/v1/authenticate_direct')
      .set('Authorization', basicAuth(app))
      .send({ email, redirect_uri: redirectUri, state, code_challenge: challenge, code_challenge_method: 'S256' })
      .expect(200);
    const token = new URL(linkIn(await smtp.next(email))).searchParams.get('token')!;
    const pressed = await request(stack.auth.url).post('/api/v1/login_link').type('form').send({ token }).expect(303);
    const cookie = String(pressed.headers['set-cookie']?.[0] ?? '');
    return { stop: new URL(pressed.headers.location), cookie, walkCookie: cookie.split(';')[0], verifier };
  }

  const follow = (continueUrl: string, cookie?: string) => {
    const call = request(stack.auth.url).get(`/api/v1/autologin${new URL(continueUrl).search}`);
    return cookie ? call.set('Cookie', cookie) : call;
  };

  it('walks through every other domain with a fresh walk code and the same state, then ends at the original redirect_uri', async () => {
    const { stop: first, cookie, walkCookie, verifier } = await startWalk();
    expect(cookie).toMatch(/^sesame_walk=[A-Za-z0-9_-]{43}; Path=\/api\/v1\/autologin; HttpOnly; SameSite=Lax; Max-Age=600$/);
    expect(`${first.origin}${first.pathname}`).toBe('http://127.0.0.1:4001/callback');
    expect(first.searchParams.get('state')).toBe('walk-state');
    const firstContinue = first.searchParams.get('autologin_continue')!;
    expect(firstContinue.startsWith(`${stack.auth.config.http.publicBaseUrl}/v1/autologin?token=`)).toBe(true);
    await exchange(first.searchParams.get('code')!, 'http://127.0.0.1:4001/callback', { autologin: 'true' }).expect(200);

    const second = new URL((await follow(firstContinue, walkCookie).expect(303)).headers.location);
    expect(`${second.origin}${second.pathname}`).toBe('https://shop.example.com/callback');
    expect(second.searchParams.get('state')).toBe('walk-state');
    await exchange(second.searchParams.get('code')!, 'https://shop.example.com/callback', { autologin: 'true' }).expect(200);

    // A continuation works once.
    await follow(firstContinue, walkCookie).expect(404);

    const last = new URL((await follow(second.searchParams.get('autologin_continue')!, walkCookie).expect(303)).headers.location);
    expect(`${last.origin}${last.pathname}`).toBe('http://localhost:4000/callback');
    expect(last.searchParams.get('state')).toBe('walk-state');
    expect(last.searchParams.get('autologin_continue')).toBeNull();
    // The original domain's code keeps the PKCE binding of the login it started.
    await exchange(last.searchParams.get('code')!, 'http://localhost:4000/callback', { code_verifier: verifier }).expect(200);
  });

  it('a walk code is exchanged only with autologin=true, and autologin=true exchanges nothing else (login CSRF with a PKCE-less code)', async () => {
    const { stop } = await startWalk();
    const refused = await exchange(stop.searchParams.get('code')!, 'http://127.0.0.1:4001/callback').expect(400);
    expect(refused.body).toEqual({
      error: 'invalid_grant',
      error_description: 'This code is an autologin stop’s: exchange it with autologin=true',
    });

    // A code without PKCE that no walk minted (direct authentication without a challenge; the hosted page no longer issues any).
    const email = uniqueEmail('no-walk');
    await request(stack.auth.url)
      .post('/api/v1/authenticate_direct')
      .set('Authorization', basicAuth(plain))
      .send({ email, redirect_uri: 'https://shop.example.com/callback', state: 's' })
      .expect(200);
    const token = new URL(linkIn(await smtp.next(email))).searchParams.get('token')!;
    const own = new URL(
      (await request(stack.auth.url).post('/api/v1/login_link').type('form').send({ token }).expect(303)).headers.location,
    );
    expect(own.searchParams.get('autologin_continue')).toBeNull();
    const injected = await request(stack.auth.url)
      .post('/api/v1/verify')
      .set('Authorization', basicAuth(plain))
      .type('form')
      .send({ code: own.searchParams.get('code')!, redirect_uri: 'https://shop.example.com/callback', autologin: 'true' })
      .expect(400);
    expect(injected.body.error_description).toBe('autologin=true is only for the codes of an autologin walk');
  });

  it('only the browser that pressed Continue can continue the walk', async () => {
    const { stop, walkCookie } = await startWalk();
    const continueUrl = stop.searchParams.get('autologin_continue')!;
    const other = await startWalk();
    for (const cookie of [undefined, other.walkCookie, 'sesame_walk=', `sesame_walk=${'A'.repeat(43)}`]) {
      const answer = await follow(continueUrl, cookie).expect(404);
      expect(answer.headers.location).toBeUndefined();
    }
    // Refusals used nothing up: the right browser still continues.
    await follow(continueUrl, walkCookie).expect(303);
  });

  it('a redirect_uri whose path starts with // is refused, so no stop can become another host', async () => {
    const refused = await request(stack.auth.url)
      .post('/api/v1/authenticate_direct')
      .set('Authorization', basicAuth(app))
      .send({ email: uniqueEmail('slashes'), redirect_uri: 'https://shop.example.com//evil.example/cb', state: 's' })
      .expect(400);
    expect(refused.body.error).toBe('invalid_request');
    const page = await request(stack.auth.url)
      .get('/api/v1/authorize')
      .query({
        response_type: 'code',
        client_id: app.clientId,
        redirect_uri: 'https://shop.example.com//evil.example/cb',
        state: 's',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      })
      .expect(400);
    expect(page.headers.location).toBeUndefined();
  });

  it('every stop of a hosted-page walk is on a whitelist origin, whatever path the login started with', async () => {
    const { challenge } = pkcePair();
    const callback = await hostedLogin(stack, smtp, {
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: 'http://localhost:4000/a//b/%2F%2Fevil.example?x=//evil.example',
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect(DOMAINS).toContain(callback.origin);
    expect(callback.origin).toBe('http://127.0.0.1:4001');
  });
});
