import { sha256 } from '@sesame/common';
import { AuthorizationCodeRepository, CodeExchange } from '@sesame/entities';
import { Client } from 'pg';
import { query } from '../support/direct-auth';
import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth, loginByLink, pkcePair } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';
import { exchangeWeb, nativeCode, userInfo, verify, webCode, WEB_REDIRECT_URI } from '../support/tokens';

/**
 * Authorization codes: single use (also under concurrency), bound to the application and to the
 * exact redirect_uri, and PKCE S256 with downgrade protection (RFC 6749 §4.1.2, §4.1.3; RFC 7636).
 */
describe('authorization codes', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let web: ApplicationFixture;
  let sibling: ApplicationFixture;
  let stranger: ApplicationFixture;
  let desktop: ApplicationFixture;

  /** What verify asks of the claim statement for a web app's code (client secret, no PKCE), issuing `token`. */
  function exchange(code: string, token: string): CodeExchange {
    const now = new Date();
    return {
      codeHash: sha256(code),
      applicationId: web.applicationId,
      now,
      redirectUri: WEB_REDIRECT_URI,
      accessTokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + 60_000),
      challenge: null,
      clientHasSecret: true,
      autologin: false,
    };
  }

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    const tenant = await createTenant(stack.management.url, 'enterprise');
    const organization = await createOrganization(stack.management.url, tenant);
    web = await createApplication(stack.management.url, organization, { type: 'web' });
    sibling = await createApplication(stack.management.url, organization, { type: 'web' });
    desktop = await createApplication(stack.management.url, organization, { type: 'desktop', callbackUrls: ['http://127.0.0.1/callback'] });
    const otherTenant = await createTenant(stack.management.url, 'pro');
    stranger = await createApplication(stack.management.url, await createOrganization(stack.management.url, otherTenant), { type: 'web' });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  const introspect = (token: string) =>
    request(stack.auth.url).post('/api/v1/introspect').set('Authorization', basicAuth(web)).type('form').send({ token }).expect(200);

  function expectInvalidGrant(response: request.Response): void {
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: expect.any(String) },
    });
  }

  describe('single use', () => {
    it('a second exchange is invalid_grant and revokes the tokens issued from the code', async () => {
      const issued = await webCode(stack, smtp, web);
      const tokens = await exchangeWeb(stack, web, issued);
      await userInfo(stack.auth.url, tokens.access_token).expect(200);

      const again = await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(web));
      expectInvalidGrant(again);
      expect(again.body.error_description).toMatch(/already been used/);

      const refused = await userInfo(stack.auth.url, tokens.access_token).expect(401);
      expect(refused.headers['www-authenticate']).toMatch(/error="invalid_token"/);
      expect((await introspect(tokens.access_token)).body).toEqual({ active: false });
    });

    it('of simultaneous exchanges exactly one succeeds, the others get invalid_grant (no 5xx), and the winner’s token is revoked', async () => {
      const issued = await webCode(stack, smtp, web);
      const attempts = await Promise.all(
        Array.from({ length: 6 }, () => verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(web))),
      );
      const statuses = attempts.map((response) => response.status).sort();
      expect(statuses).toEqual([200, 400, 400, 400, 400, 400]);
      attempts.filter((response) => response.status === 400).forEach(expectInvalidGrant);
      // Each loser saw a used code (RFC 6749 §4.1.2: revoke what was issued from it).
      const winner = attempts.find((response) => response.status === 200)!;
      await userInfo(stack.auth.url, winner.body.access_token).expect(401);
    });

    it('one statement holding the same code twice (beside another code) claims it once: each request gets its own answer', async () => {
      // Under load concurrent exchanges share one claim statement; this runs such a batch directly.
      const [twice, once] = [await webCode(stack, smtp, web), await webCode(stack, smtp, web)];
      const answers = await stack.auth.app
        .get(AuthorizationCodeRepository)
        .claimAndIssueTokens([exchange(twice.code, 'first'), exchange(once.code, 'other'), exchange(twice.code, 'second')]);

      expect(answers[1]).toMatchObject({ granted: true, email: once.email });
      const claims = [answers[0], answers[2]];
      expect(claims.filter((answer) => answer === null)).toHaveLength(1);
      expect(claims.find((answer) => answer !== null)).toMatchObject({ granted: true, email: twice.email });
      const winner = answers[0] ? 'first' : 'second';
      const stored = await stack.auth.app.get(AuthorizationCodeRepository).findUse(sha256(twice.code), web.applicationId);
      expect(stored?.accessTokenHash).toEqual(sha256(winner));
    });

    it('two statements claiming the same codes in opposite orders lock them in one order: both finish, no deadlock', async () => {
      // Two instances, each with a batch holding codes X and Y in its own order, while something
      // holds X: when it lets go, both batches want X first, so neither can hold Y while waiting for X.
      const [x, y] = [await webCode(stack, smtp, web), await webCode(stack, smtp, web)];
      const codes = stack.auth.app.get(AuthorizationCodeRepository);
      const [first, second] = sha256(x.code).compare(sha256(y.code)) < 0 ? [x, y] : [y, x];
      // Enough codes that Postgres finds each one by its index, in the order the statement lists them
      // (on a near-empty table it reads them all in storage order, which hides the question).
      await query(
        `INSERT INTO authorization_code (hash, application_id, user_id, redirect_uri, auth_time, expires_at, created_at)
         SELECT sha256(('filler-' || $1 || g)::bytea), application_id, user_id, redirect_uri, auth_time, 'infinity', created_at
           FROM authorization_code, generate_series(1, 50000) g WHERE hash = $2`,
        [String(process.pid), sha256(x.code)],
      );
      await query('ANALYZE authorization_code');
      const holder = new Client({ connectionString: process.env.DATABASE_URL });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM authorization_code WHERE hash = $1 FOR UPDATE', [sha256(first.code)]);
        const inOrder = codes.claimAndIssueTokens([exchange(first.code, 'a1'), exchange(second.code, 'a2')]);
        await waitersOf(holder, 1);
        const reversed = codes.claimAndIssueTokens([exchange(second.code, 'b2'), exchange(first.code, 'b1')]);
        await waitersOf(holder, 2);
        await holder.query('COMMIT');
        const answers = [...(await inOrder), ...(await reversed)];
        expect(answers.filter((answer) => answer?.granted)).toHaveLength(2);
      } finally {
        await holder.end();
      }
    });

    it('two simultaneous exchanges of a native app’s code with the verifier: one winner', async () => {
      const issued = await nativeCode(stack, smtp, desktop, 'http://127.0.0.1:40001/callback');
      const form = { client_id: desktop.clientId, code: issued.code, redirect_uri: issued.redirectUri, code_verifier: issued.verifier };
      const [first, second] = await Promise.all([verify(stack.auth.url, form), verify(stack.auth.url, form)]);
      expect([first.status, second.status].sort()).toEqual([200, 400]);
    });
  });

  it('a user blocked between the login and the exchange gets no tokens (invalid_grant)', async () => {
    const issued = await webCode(stack, smtp, web);
    const users = await request(stack.management.url)
      .get(`/api/v2/organization/${web.organizationId}/user`)
      .query({ email: issued.email })
      .set('Authorization', `Bearer ${web.apiKey}`)
      .expect(200);
    const userId = users.body.data[0].id;
    await request(stack.management.url)
      .post(`/api/v2/organization/${web.organizationId}/user/${userId}`)
      .set('Authorization', `Bearer ${web.apiKey}`)
      .send({ blocked: true })
      .expect(200);
    expectInvalidGrant(await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(web)));
  });

  describe('bound to the application', () => {
    it('a used code presented by another client revokes nothing: only the code’s own application triggers the replay revocation', async () => {
      const issued = await webCode(stack, smtp, web);
      const tokens = await exchangeWeb(stack, web, issued);
      for (const [client, authorization] of [
        ['sibling', basicAuth(sibling)],
        ['stranger', basicAuth(stranger)],
      ]) {
        const replay = await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, authorization);
        expectInvalidGrant(replay);
        expect([client, replay.body.error_description]).toEqual([client, 'The code is invalid, expired, or was issued to another client']);
      }
      const native = await verify(stack.auth.url, {
        client_id: desktop.clientId,
        code: issued.code,
        redirect_uri: issued.redirectUri,
        code_verifier: 'v'.repeat(43),
      });
      expectInvalidGrant(native);
      await userInfo(stack.auth.url, tokens.access_token).expect(200);
      expect((await introspect(tokens.access_token)).body.active).toBe(true);
    });

    it('another application of the same organization cannot redeem the code, and its attempt does not use it up', async () => {
      const issued = await webCode(stack, smtp, web);
      expectInvalidGrant(await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(sibling)));
      const tokens = await exchangeWeb(stack, web, issued);
      await userInfo(stack.auth.url, tokens.access_token).expect(200);
    });

    it('an application of another tenant cannot redeem it either', async () => {
      const issued = await webCode(stack, smtp, web);
      expectInvalidGrant(await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(stranger)));
      await exchangeWeb(stack, web, issued);
    });

    it('a native app cannot redeem a web app’s code with client_id alone', async () => {
      const issued = await webCode(stack, smtp, web, { pkce: true });
      expectInvalidGrant(
        await verify(stack.auth.url, {
          client_id: desktop.clientId,
          code: issued.code,
          redirect_uri: issued.redirectUri,
          code_verifier: issued.verifier,
        }),
      );
      await exchangeWeb(stack, web, issued);
    });
  });

  describe('bound to the exact redirect_uri', () => {
    it.each([
      ['another path', 'http://localhost:4000/other'],
      ['a trailing slash', 'http://localhost:4000/callback/'],
      ['an added query', 'http://localhost:4000/callback?x=1'],
      ['another port', 'http://localhost:4001/callback'],
      ['an equivalent spelling (upper-case scheme and host)', 'HTTP://LOCALHOST:4000/callback'],
    ])('refuses %s as invalid_grant; the code is used up by the failed attempt', async (_, redirectUri) => {
      const issued = await webCode(stack, smtp, web);
      expectInvalidGrant(await verify(stack.auth.url, { code: issued.code, redirect_uri: redirectUri }, basicAuth(web)));
      expectInvalidGrant(await verify(stack.auth.url, { code: issued.code, redirect_uri: issued.redirectUri }, basicAuth(web)));
    });

    it('a desktop app must present the loopback port it used, not just any port', async () => {
      const issued = await nativeCode(stack, smtp, desktop, 'http://127.0.0.1:40002/callback');
      expectInvalidGrant(
        await verify(stack.auth.url, {
          client_id: desktop.clientId,
          code: issued.code,
          redirect_uri: 'http://127.0.0.1:40003/callback',
          code_verifier: issued.verifier,
        }),
      );
    });
  });

  describe('PKCE (S256)', () => {
    it('accepts the matching verifier', async () => {
      const issued = await webCode(stack, smtp, web, { pkce: true });
      await exchangeWeb(stack, web, issued);
    });

    it.each([
      ['a wrong verifier', () => pkcePair().verifier],
      ['no verifier', () => undefined],
      ['the challenge instead of the verifier (plain)', (challenge: string) => challenge],
      ['a verifier shorter than 43 characters', () => 'a'.repeat(42)],
      ['a verifier with characters outside the unreserved set', () => `${'a'.repeat(42)}+`],
    ])('refuses %s as invalid_grant, and the code cannot be tried again', async (_, candidate) => {
      const { verifier, challenge } = pkcePair();
      const callback = await loginByLink(stack, smtp, web, { codeChallenge: challenge, redirectUri: WEB_REDIRECT_URI });
      const code = callback.searchParams.get('code')!;
      expectInvalidGrant(
        await verify(stack.auth.url, { code, redirect_uri: WEB_REDIRECT_URI, code_verifier: candidate(challenge) }, basicAuth(web)),
      );
      expectInvalidGrant(await verify(stack.auth.url, { code, redirect_uri: WEB_REDIRECT_URI, code_verifier: verifier }, basicAuth(web)));
    });

    it('downgrade protection: a verifier sent for a code issued without a challenge is invalid_grant', async () => {
      const issued = await webCode(stack, smtp, web);
      const response = await verify(
        stack.auth.url,
        { code: issued.code, redirect_uri: issued.redirectUri, code_verifier: pkcePair().verifier },
        basicAuth(web),
      );
      expectInvalidGrant(response);
      expect(response.body.error_description).toMatch(/without code_challenge/);
    });

    it('a native app with a wrong or missing verifier gets invalid_grant', async () => {
      const wrong = await nativeCode(stack, smtp, desktop, 'http://127.0.0.1:40004/callback');
      expectInvalidGrant(
        await verify(stack.auth.url, {
          client_id: desktop.clientId,
          code: wrong.code,
          redirect_uri: wrong.redirectUri,
          code_verifier: pkcePair().verifier,
        }),
      );
      const missing = await nativeCode(stack, smtp, desktop, 'http://127.0.0.1:40005/callback');
      expectInvalidGrant(
        await verify(stack.auth.url, { client_id: desktop.clientId, code: missing.code, redirect_uri: missing.redirectUri }),
      );
    });
  });
});

/**
 * Resolves once `count` other sessions of the database wait for a lock. Asked on a connection of
 * its own each time: a session in a transaction keeps seeing the activity it read first.
 */
async function waitersOf(holder: Client, count: number): Promise<void> {
  const [{ pid }] = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
  for (;;) {
    const [{ waiting }] = await query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE pid <> $1 AND wait_event_type = 'Lock' AND datname = current_database()`,
      [pid],
    );
    if (waiting >= count) return;
  }
}
