import request from 'supertest';
import { RunningApp, startManagementApi } from '../support/apps';
import { FILE_REDIS_PREFIX } from '../support/config';
import { TEST_PLATFORM_API_KEY } from '../support/test-env';

const BASE = '/api/v2/queues';

/**
 * The queue dashboard, turned on (QUEUE_DASHBOARD=on): answered inside Nest, so the global per-IP
 * limit and the problem filter apply; the platform key as a Bearer token for tools, and for
 * browsers a sign-in form that sets an hour's session cookie (never HTTP Basic, whose password the
 * browser would keep sending).
 */
describe('queue dashboard', () => {
  let api: RunningApp;

  beforeAll(async () => {
    api = await startManagementApi({ env: { QUEUE_DASHBOARD: 'on' } });
  });

  afterAll(async () => {
    await api.close();
  });

  const bearer = `Bearer ${TEST_PLATFORM_API_KEY}`;

  async function signIn(): Promise<string> {
    const signedIn = await request(api.url).post(`${BASE}/session`).type('form').send({ key: TEST_PLATFORM_API_KEY }).expect(303);
    expect(signedIn.headers.location).toBe(`${BASE}/`);
    const cookie = String(signedIn.headers['set-cookie'][0]);
    expect(cookie).toMatch(/^sesame_queues=\d+\.[A-Za-z0-9_-]{43}; Path=\/api\/v2\/queues; HttpOnly; SameSite=Strict; Max-Age=3600$/);
    expect(cookie).not.toContain(TEST_PLATFORM_API_KEY);
    return cookie.split(';')[0];
  }

  it('answers tools that send the platform key as a Bearer token', async () => {
    const queues = await request(api.url).get(`${BASE}/api/queues`).set('Authorization', bearer).expect(200);
    expect(queues.body.queues.map((queue: { name: string }) => queue.name)).toEqual(['mail']);
    expect(queues.headers['cache-control']).toBe('no-store');
  });

  it('never asks the browser for HTTP Basic, and does not accept it', async () => {
    for (const authorization of [
      undefined,
      `Basic ${Buffer.from(`admin:${TEST_PLATFORM_API_KEY}`).toString('base64')}`,
      'Bearer not-the-key',
    ]) {
      const call = request(api.url).get(`${BASE}/api/queues`);
      const refused = await (authorization ? call.set('Authorization', authorization) : call).expect(401);
      expect(refused.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(refused.body.code).toBe('platform_key_required');
      expect(refused.headers['www-authenticate']).toBe('Bearer realm="sesame"');
    }
  });

  it('lets a browser sign in with the platform key once, then serves the board page and its files with the session cookie', async () => {
    const form = await request(api.url).get(`${BASE}/session`).expect(200);
    expect(form.text).toContain('type="password"');
    const wrong = await request(api.url).post(`${BASE}/session`).type('form').send({ key: 'not-the-key' }).expect(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();

    const cookie = await signIn();
    const page = await request(api.url).get(`${BASE}/`).set('Cookie', cookie).expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain(`<base href="${BASE}/" />`);
    expect(page.text).toContain('<title>Sesame queues</title>');
    expect(page.text).not.toContain('<%');
    const script = /src="(static\/js\/main\.[^"]+\.js)"/.exec(page.text)![1];
    const file = await request(api.url).get(`${BASE}/${script}`).set('Cookie', cookie).expect(200);
    expect(file.headers['content-type']).toBe('text/javascript; charset=utf-8');
    await request(api.url).get(`${BASE}/queue/mail`).set('Cookie', cookie).expect(200);
    await request(api.url).get(`${BASE}/api/queues`).set('Cookie', cookie).expect(200);

    await request(api.url)
      .get(`${BASE}/`)
      .set('Cookie', 'sesame_queues=4102444800.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
      .expect(401);
  });

  it('refuses changes made with the cookie from another site; the board’s own requests pass', async () => {
    const cookie = await signIn();
    const pause = (headers: Record<string, string>) =>
      request(api.url)
        .put(`${BASE}/api/queues/mail/pause`)
        .set({ Cookie: cookie, ...headers });
    for (const headers of [
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      { Origin: 'https://evil.example' },
    ] as Record<string, string>[]) {
      const refused = await pause(headers).expect(403);
      expect(refused.body.code).toBe('cross_site_request');
    }
    await pause({ 'Sec-Fetch-Site': 'same-origin' }).expect(200);
    await request(api.url).put(`${BASE}/api/queues/mail/resume`).set({ Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' }).expect(200);
    const crossSiteSignIn = await request(api.url)
      .post(`${BASE}/session`)
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ key: TEST_PLATFORM_API_KEY })
      .expect(403);
    expect(crossSiteSignIn.headers['set-cookie']).toBeUndefined();
  });

  it('answers unknown board paths and files outside its static folder with 404', async () => {
    for (const path of [`${BASE}/nowhere/at/all`, `${BASE}/static/..%2F..%2Fpackage.json`, `${BASE}/static/%2e%2e/index.ejs`]) {
      const answer = await request(api.url).get(path).set('Authorization', bearer);
      expect([path, answer.status]).toEqual([path, 404]);
    }
  });

  it('is inside the global per-IP limit', async () => {
    // Its own Redis prefix: the other tests' requests from this address count in the shared one.
    const limited = await startManagementApi({
      env: { QUEUE_DASHBOARD: 'on', GLOBAL_RATE_LIMIT: '3', REDIS_PREFIX: `${FILE_REDIS_PREFIX}-limited` },
    });
    try {
      for (let i = 0; i < 3; i++) await request(limited.url).get(`${BASE}/api/queues`).set('Authorization', bearer).expect(200);
      const refused = await request(limited.url).get(`${BASE}/api/queues`).set('Authorization', bearer).expect(429);
      expect(refused.body.code).toBe('rate_limited');
    } finally {
      await limited.close();
    }
  });

  it('is not routed at all without QUEUE_DASHBOARD=on', async () => {
    const off = await startManagementApi();
    try {
      const answer = await request(off.url).get(`${BASE}/api/queues`).set('Authorization', bearer).expect(404);
      expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    } finally {
      await off.close();
    }
  });
});
