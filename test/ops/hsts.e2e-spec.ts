import request from 'supertest';
import { RunningApp, startAuthApi, startManagementApi } from '../support/apps';

/** Strict-Transport-Security on every answer when clients reach Sesame over HTTPS (PUBLIC_BASE_URL). */
describe('HSTS', () => {
  const started: RunningApp[] = [];
  const start = async (starter: typeof startAuthApi, env: Record<string, string>) => {
    const app = await starter({ env });
    started.push(app);
    return app;
  };

  afterAll(async () => {
    for (const app of started) await app.close();
  });

  it('is on every answer of both APIs behind an https PUBLIC_BASE_URL: JSON, pages, errors and unknown routes', async () => {
    const env = { PUBLIC_BASE_URL: 'https://id.example.com/api' };
    const auth = await start(startAuthApi, env);
    const management = await start(startManagementApi, env);
    const answers = {
      metadata: await request(auth.url).get('/api/v1/.well-known/openid-configuration').expect(200),
      page: await request(auth.url).get('/api/v1/login_link?token=unknown').expect(404),
      oauthError: await request(auth.url).post('/api/v1/verify').type('form').send({ code: 'x' }).expect(401),
      unknownRoute: await request(auth.url).get('/api/nowhere').expect(404),
      problem: await request(management.url).get('/api/v2/tenant').expect(401),
      health: await request(management.url).get('/api/health').expect(200),
    };
    for (const [name, answer] of Object.entries(answers))
      expect([name, answer.headers['strict-transport-security']]).toEqual([name, 'max-age=31536000']);
  });

  it('follows HSTS_MAX_AGE_SECONDS, 0 turning it off, and is never sent when clients use plain http', async () => {
    const shorter = await start(startAuthApi, { PUBLIC_BASE_URL: 'https://id.example.com/api', HSTS_MAX_AGE_SECONDS: '600' });
    expect((await request(shorter.url).get('/api/nowhere')).headers['strict-transport-security']).toBe('max-age=600');
    const off = await start(startAuthApi, { PUBLIC_BASE_URL: 'https://id.example.com/api', HSTS_MAX_AGE_SECONDS: '0' });
    expect((await request(off.url).get('/api/nowhere')).headers['strict-transport-security']).toBeUndefined();
    const plain = await start(startAuthApi, { PUBLIC_BASE_URL: 'http://localhost:3000/api' });
    expect((await request(plain.url).get('/api/nowhere')).headers['strict-transport-security']).toBeUndefined();
  });
});
