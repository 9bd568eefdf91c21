import { createHash } from 'node:crypto';
import { ManualClock } from '@sesame/common';
import { Client } from 'pg';
import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';
import { openIdToken, userInfo, verify, webCode } from '../support/tokens';

const NO_SWEEPS = { MAIL_SWEEP_INTERVAL_SECONDS: '3600' };

/**
 * Client secrets: what the database keeps, and rotation with an overlap (CLIENT_SECRET_ROTATION_OVERLAP_SECONDS,
 * 24 h by default) so running deployments keep working while they switch to the new secret.
 */
describe('client secrets', () => {
  const smtp = new SmtpSink();
  const clock = new ManualClock(new Date('2031-03-01T10:00:00Z'));
  let stack: Stack;
  let db: Client;
  let organization: Awaited<ReturnType<typeof createOrganization>>;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url, { clock, env: NO_SWEEPS });
    db = new Client({ connectionString: stack.auth.config.database.url });
    await db.connect();
    organization = await createOrganization(stack.management.url, await createTenant(stack.management.url, 'pro'));
  });

  afterAll(async () => {
    await db.end();
    await stack.close();
    await smtp.stop();
  });

  const rotate = (app: ApplicationFixture, body: Record<string, unknown> = {}) =>
    request(stack.management.url)
      .post(`/api/v2/organization/${app.organizationId}/application/${app.applicationId}/rotate_secret`)
      .set('Authorization', `Bearer ${app.apiKey}`)
      .send(body)
      .expect(200);
  const status = (app: ApplicationFixture, secret: string) =>
    request(stack.auth.url)
      .get('/api/v1/login_attempt/00000000-0000-4000-8000-000000000000')
      .set('Authorization', basicAuth({ clientId: app.clientId, clientSecret: secret }));

  it('stores neither the secret nor its bare SHA-256 (the id_token key): an HMAC under a key derived from SECRETS_KEY', async () => {
    const app = await createApplication(stack.management.url, organization, { type: 'web' });
    const { rows } = await db.query('SELECT client_secret_hash, client_secret_verifier FROM application WHERE id = $1', [
      app.applicationId,
    ]);
    const sha256 = createHash('sha256').update(app.clientSecret!).digest();
    expect(rows[0].client_secret_hash).toBeNull();
    expect(rows[0].client_secret_verifier).toHaveLength(32);
    expect(rows[0].client_secret_verifier.equals(sha256)).toBe(false);
  });

  it('the previous secret keeps working during the overlap, with id_tokens it can open, then stops', async () => {
    const app = await createApplication(stack.management.url, organization, { type: 'web' });
    const old = app.clientSecret!;
    const rotated = (await rotate(app)).body;
    expect(Date.parse(rotated.previousSecretExpiresAt)).toBe(clock.now().getTime() + 86_400_000);
    const renewed = { ...app, clientSecret: rotated.clientSecret as string };

    // A deployment still on the old secret: it authenticates, and its id_token opens with the old secret.
    const issued = await webCode(stack, smtp, renewed);
    const tokens = await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(app, old)).expect(200);
    const { payload } = await openIdToken(stack, app, tokens.body.id_token);
    expect(payload.email).toBe(issued.email);
    await expect(openIdToken(stack, renewed, tokens.body.id_token)).rejects.toThrow();
    await status(renewed, renewed.clientSecret).expect(404);

    clock.advance(86_400 - 1);
    await status(app, old).expect(404);
    clock.advance(1);
    await status(app, old).expect(401);
    await status(renewed, renewed.clientSecret).expect(404);
  });

  it('overlapSeconds 0 stops the old secret at once; revokeAccessTokens ends the sessions the application holds', async () => {
    const app = await createApplication(stack.management.url, organization, { type: 'web' });
    const issued = await webCode(stack, smtp, app);
    const tokens = await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(app)).expect(200);
    await userInfo(stack.auth.url, tokens.body.access_token).expect(200);
    clock.advance(6); // past the userinfo cache (ACCESS_TOKEN_CACHE_SECONDS, 5)

    const rotated = (await rotate(app, { overlapSeconds: 0, revokeAccessTokens: true })).body;
    expect(rotated.previousSecretExpiresAt).toBeNull();
    await status(app, app.clientSecret!).expect(401);
    await status(app, rotated.clientSecret).expect(404);
    await userInfo(stack.auth.url, tokens.body.access_token).expect(401);
  });

  it('rows from before HMAC verifiers (a bare SHA-256) keep working until `migrate` replaces them', async () => {
    const app = await createApplication(stack.management.url, organization, { type: 'web' });
    const sha256 = createHash('sha256').update(app.clientSecret!).digest();
    await db.query('UPDATE application SET client_secret_hash = $2, client_secret_verifier = NULL WHERE id = $1', [
      app.applicationId,
      sha256,
    ]);
    await status(app, app.clientSecret!).expect(404);
    await status(app, 'cs_wrong').expect(401);
  });
});
