import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { authenticateDirect, expectOAuthError, query } from '../support/direct-auth';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { insertPasskey } from '../support/management';
import { basicAuth, loginByLink, pkcePair, uniqueEmail } from '../support/login';
import { emailedLoginWithOffer, registerPasskey } from '../support/passkeys';
import { SmtpSink } from '../support/smtp-sink';
import { CreationOptions, RequestOptions, SoftwareAuthenticator } from '../support/software-authenticator';

/** The application's pages: two hosts of the organization's whitelist (two RP IDs), and the one the link's callback is on. */
const APP = 'https://app.example.com';
const SHOP = 'https://shop.example.com';
const LOCAL = 'http://localhost:4000';
const WHITELIST = [LOCAL, APP, SHOP];
const CALLBACK = `${APP}/callback`;

/**
 * Passkeys in direct authentication over real HTTP (POST /v1/passkey_direct/*, client
 * credentials), answered by the software authenticator the hosted page's tests use: registering
 * right after a direct login (with the access token it issued), signing in on the application's
 * page (the code, exchanged with PKCE), and the refusals the rules promise.
 */
describe('passkeys in direct authentication', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let app: ApplicationFixture;
  let sibling: ApplicationFixture;
  let otherOrgApp: ApplicationFixture;

  const post = (client: ApplicationFixture, path: string, body: Record<string, unknown>) =>
    request(stack.auth.url).post(`/api/v1/passkey_direct/${path}`).set('Authorization', basicAuth(client)).send(body);

  /** A direct login by e-mailed link, its code exchanged: the access token and the user's address. */
  async function directLogin(client: ApplicationFixture = app, email = uniqueEmail('direct-passkey')) {
    const pkce = pkcePair();
    const callback = await loginByLink(stack, smtp, client, { email, redirectUri: `${LOCAL}/callback`, codeChallenge: pkce.challenge });
    const tokens = await request(stack.auth.url)
      .post('/api/v1/verify')
      .type('form')
      .auth(client.clientId, client.clientSecret!)
      .send({ code: callback.searchParams.get('code')!, redirect_uri: `${LOCAL}/callback`, code_verifier: pkce.verifier })
      .expect(200);
    return { email, accessToken: tokens.body.access_token as string };
  }

  /** Registers a passkey of `authenticator` on `origin` with a fresh login's token. */
  async function register(authenticator: SoftwareAuthenticator, origin: string, login: { accessToken: string }, client = app) {
    const options = (await post(client, 'register/options', { access_token: login.accessToken, origin }).expect(200))
      .body as CreationOptions;
    const response = authenticator.register(options);
    const registered = await post(client, 'register/verify', {
      access_token: login.accessToken,
      origin,
      response,
      userAgent: 'Mozilla/5.0',
    });
    expect(registered.status).toBe(200);
    return { options, registered: registered.body as { registered: boolean; passkeyId: string; name: string } };
  }

  /** A sign-in's login fields (fresh state and PKCE pair) and its options. */
  async function signInOptions(origin: string = APP, client: ApplicationFixture = app, redirectUri = `${origin}/callback`) {
    const pkce = pkcePair();
    const login = {
      origin,
      redirect_uri: redirectUri,
      state: `direct-${Date.now()}-${Math.random()}`,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    };
    const options = (await post(client, 'options', login).expect(200)).body as RequestOptions;
    return { login, pkce, options };
  }

  const verify = (login: Record<string, unknown>, response: Record<string, unknown>, client: ApplicationFixture = app) =>
    post(client, 'verify', { ...login, response });

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url, { publicHost: 'localhost' });
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: WHITELIST });
    app = await createApplication(stack.management.url, organization);
    sibling = await createApplication(stack.management.url, organization);
    otherOrgApp = await createApplication(
      stack.management.url,
      await createOrganization(stack.management.url, tenant, { whitelistDomains: WHITELIST }),
    );
  });

  afterAll(async () => {
    await stack?.close();
    await smtp.stop();
  });

  it("registers after a direct login (under the page's host), then signs in with the passkey alone: the code, exchanged with PKCE", async () => {
    const authenticator = new SoftwareAuthenticator(APP);
    const login = await directLogin();
    const { options, registered } = await register(authenticator, APP, login);
    expect(options.rp.id).toBe('app.example.com');
    expect(options).toMatchObject({
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      user: { name: login.email },
    });
    expect(registered).toEqual({ registered: true, passkeyId: expect.any(String), name: expect.any(String) });

    const [stored] = await query<{ rp_id: string; user_id: string; email: string }>(
      'SELECT p.rp_id, p.user_id, u.email FROM passkey p JOIN "user" u ON u.id = p.user_id WHERE p.id = $1',
      [registered.passkeyId],
    );
    expect(stored).toMatchObject({ rp_id: 'app.example.com', email: login.email });
    const [audit] = await query(
      'SELECT actor_type, actor_id, target_type, target_id FROM audit_event WHERE action = $1 AND actor_id = $2',
      ['passkey.register', stored.user_id],
    );
    expect(audit).toMatchObject({ actor_type: 'user', target_type: 'passkey', target_id: registered.passkeyId });
    const events = await query<{ payload: { user: { email: string } } }>(
      "SELECT payload FROM webhook_event WHERE type = 'passkey.registered'",
    );
    expect(events.map((event) => event.payload.user.email)).toContain(login.email);
    // The user is told by e-mail, as after a registration on the hosted page.
    expect((await smtp.next(login.email)).subject).toMatch(/passkey/i);

    const { login: fields, pkce, options: requestOptions } = await signInOptions();
    expect(requestOptions).toMatchObject({ rpId: 'app.example.com', userVerification: 'required' });
    expect(requestOptions).not.toHaveProperty('allowCredentials.0');
    const signedIn = await verify(fields, authenticator.authenticate(requestOptions)).expect(200);
    expect(signedIn.headers['cache-control']).toBe('no-store');
    expect(signedIn.body).toEqual({ code: expect.any(String), state: fields.state, redirectUri: CALLBACK });
    const tokens = await request(stack.auth.url)
      .post('/api/v1/verify')
      .type('form')
      .auth(app.clientId, app.clientSecret!)
      .send({ code: signedIn.body.code, redirect_uri: CALLBACK, code_verifier: pkce.verifier })
      .expect(200);
    const userinfo = await request(stack.auth.url)
      .get('/api/v1/userinfo')
      .set('Authorization', `Bearer ${tokens.body.access_token}`)
      .expect(200);
    expect(userinfo.body.email).toBe(login.email);

    // A login like any other: a completed attempt of the direct flow naming the passkey, user.signed_in, the last use.
    const [attempt] = await query<{ flow: string; status: string; passkey_id: string }>(
      'SELECT flow, status, passkey_id FROM login_attempt WHERE passkey_id = $1',
      [registered.passkeyId],
    );
    expect(attempt).toEqual({ flow: 'direct', status: 'completed', passkey_id: registered.passkeyId });
    // The organization's login activity shows it as a passkey login, no e-mail involved.
    const activity = await request(stack.management.url)
      .get(`/api/v2/organization/${app.organizationId}/login_attempt`)
      .query({ email: login.email })
      .set('Authorization', `Bearer ${app.apiKey}`)
      .expect(200);
    const rows = JSON.stringify(activity.body);
    expect(rows).toContain('"method":"passkey"');
    expect(rows).toContain('"method":"email"');
    // user.signed_in of the passkey login: its attempt, flow direct.
    const [passkeyLogin] = await query<{ id: string }>('SELECT id FROM login_attempt WHERE passkey_id = $1', [registered.passkeyId]);
    const signedInEvents = await query<{ payload: Record<string, unknown> }>(
      "SELECT payload FROM webhook_event WHERE type = 'user.signed_in'",
    );
    const signedInPayload = signedInEvents
      .map((event) => JSON.stringify(event.payload))
      .find((payload) => payload.includes(passkeyLogin.id));
    expect(signedInPayload).toContain('"flow":"direct"');
    expect(signedInPayload).toContain(login.email);
    const [used] = await query<{ last_used_at: Date | null }>('SELECT last_used_at FROM passkey WHERE id = $1', [registered.passkeyId]);
    expect(used.last_used_at).not.toBeNull();
  });

  describe('refusals', () => {
    const authenticator = new SoftwareAuthenticator(APP);
    let email: string;

    beforeAll(async () => {
      const login = await directLogin();
      email = login.email;
      await register(authenticator, APP, login);
    });

    it('a challenge answers once: the same answer again, or another answer to it, is refused', async () => {
      const { login, options } = await signInOptions();
      const answer = authenticator.authenticate(options);
      await verify(login, answer).expect(200);
      expectOAuthError(await verify(login, answer), 400, 'passkey_challenge_invalid');
      expectOAuthError(await verify(login, authenticator.authenticate(options)), 400, 'passkey_challenge_invalid');
      // A refused answer uses its challenge up too.
      const refused = await signInOptions();
      expectOAuthError(
        await verify(refused.login, authenticator.authenticate(refused.options, { userVerified: false })),
        400,
        'passkey_refused',
      );
      expectOAuthError(await verify(refused.login, authenticator.authenticate(refused.options)), 400, 'passkey_challenge_invalid');
    });

    it("another application's challenge, or another login's (state, PKCE), is refused", async () => {
      const { login, options } = await signInOptions();
      expectOAuthError(await verify(login, authenticator.authenticate(options), sibling), 400, 'passkey_challenge_invalid');
      const other = await signInOptions();
      expectOAuthError(
        await verify({ ...other.login, state: 'another-state' }, authenticator.authenticate(other.options)),
        400,
        'passkey_challenge_invalid',
      );
      // Neither could claim it: the challenge still answers its own login only.
      await verify(other.login, authenticator.authenticate(other.options)).expect(200);
    });

    it('an origin outside the whitelist (or not an origin) gets no options; an answer made on another origin is refused', async () => {
      for (const origin of [
        'https://evil.example.net',
        `${APP}/`,
        `${APP}/login`,
        'https://127.0.0.1',
        'http://app.example.com',
        'nonsense',
      ]) {
        expectOAuthError(await post(app, 'options', { ...(await fields(origin)) }), 400, 'invalid_request');
      }
      expectOAuthError(
        await post(app, 'register/options', { access_token: 'x', origin: 'https://evil.example.net' }),
        400,
        'invalid_request',
      );
      const { login, options } = await signInOptions();
      expectOAuthError(
        await verify(login, authenticator.authenticate(options, { origin: 'https://evil.example.net' })),
        400,
        'passkey_refused',
      );
      // A redirect_uri the application may not use, as authenticate_direct refuses it.
      expectOAuthError(
        await post(app, 'options', { ...(await fields(APP)), redirect_uri: 'https://evil.example.net/cb' }),
        400,
        'invalid_request',
      );
    });

    it('a passkey registered under another RP ID (another host, or the hosted page) does not sign in here', async () => {
      const shopKey = new SoftwareAuthenticator(SHOP);
      await register(shopKey, SHOP, await directLogin());
      // On the application's host: its own passkey is not this host's, even if the authenticator claims it is.
      const here = await signInOptions(APP);
      expectOAuthError(await verify(here.login, shopKey.authenticate(here.options, { origin: APP })), 400, 'passkey_refused');
      // On its own host it works.
      const there = await signInOptions(SHOP);
      await verify(there.login, shopKey.authenticate(there.options)).expect(200);
      // app.example.com's passkey on localhost (the hosted page's RP ID too), answered as if made there.
      const local = await signInOptions(LOCAL);
      expectOAuthError(await verify(local.login, authenticator.authenticate(local.options, { origin: LOCAL })), 400, 'passkey_refused');
    });

    it("a hosted page's passkey signs in only on a page of the hosted page's RP ID (here localhost)", async () => {
      const hostedOrigin = new URL(stack.auth.config.http.publicBaseUrl).origin;
      const hostedKey = new SoftwareAuthenticator(hostedOrigin);
      await registerPasskey(stack.auth.url, hostedOrigin, hostedKey, await emailedLoginWithOffer(stack.auth.url, smtp, app));
      const onApp = await signInOptions(APP);
      expectOAuthError(await verify(onApp.login, hostedKey.authenticate(onApp.options, { origin: APP })), 400, 'passkey_refused');
      const onLocal = await signInOptions(LOCAL);
      await verify(onLocal.login, hostedKey.authenticate(onLocal.options, { origin: LOCAL })).expect(200);
    });

    it("another organization's application cannot sign in with the passkey", async () => {
      const { login, options } = await signInOptions(APP, otherOrgApp);
      expectOAuthError(await verify(login, authenticator.authenticate(options), otherOrgApp), 400, 'passkey_refused');
    });

    it("another user's handle is refused", async () => {
      const { login, options } = await signInOptions();
      expectOAuthError(
        await verify(login, authenticator.authenticate(options, { userHandle: 'c29tZW9uZS1lbHNl' })),
        400,
        'passkey_refused',
      );
    });

    it("a blocked user's passkey stops working, and works again once unblocked", async () => {
      const [user] = await query<{ id: string }>('SELECT id FROM "user" WHERE email = $1', [email]);
      const setBlocked = (blocked: boolean) =>
        request(stack.management.url)
          .post(`/api/v2/organization/${app.organizationId}/user/${user.id}`)
          .set('Authorization', `Bearer ${app.apiKey}`)
          .send({ blocked })
          .expect(200);
      await setBlocked(true);
      const blocked = await signInOptions();
      expectOAuthError(await verify(blocked.login, authenticator.authenticate(blocked.options)), 400, 'passkey_refused');
      await setBlocked(false);
      const unblocked = await signInOptions();
      await verify(unblocked.login, authenticator.authenticate(unblocked.options)).expect(200);
    });

    it('no user verification is refused', async () => {
      const { login, options } = await signInOptions();
      expectOAuthError(await verify(login, authenticator.authenticate(options, { userVerified: false })), 400, 'passkey_refused');
    });

    it('malformed answers are refused with 400, never a server error', async () => {
      const { login, options } = await signInOptions();
      const good = authenticator.authenticate(options) as { response: Record<string, unknown> };
      for (const response of [
        {},
        { id: 'x' },
        { ...good, rawId: 'other' },
        { ...good, response: 'text' },
        { ...good, response: { ...good.response, clientDataJSON: 'not base64url!' } },
        { ...good, response: { ...good.response, clientDataJSON: Buffer.from('{"challenge":42}').toString('base64url') } },
        { ...good, response: { ...good.response, userHandle: { not: 'a string' } } },
        { ...good, response: { ...good.response, signature: 'AAAA', authenticatorData: 'AAAA' } },
      ]) {
        const answer = await verify(login, response);
        expect([400]).toContain(answer.status);
      }
      expectOAuthError(await post(app, 'verify', { ...login, response: 'text' }), 400, 'invalid_request');
      const registering = await directLogin();
      for (const response of [
        {},
        { id: 'x', response: { clientDataJSON: 42 } },
        { response: { clientDataJSON: good.response.clientDataJSON } },
      ]) {
        const answer = await post(app, 'register/verify', { access_token: registering.accessToken, origin: APP, response });
        expect(answer.status).toBe(400);
      }
    });

    async function fields(origin: string) {
      return {
        origin,
        redirect_uri: CALLBACK,
        state: 'state',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      };
    }
  });

  describe('registration only right after a direct login, once', () => {
    it('refuses an unknown token, another application’s token, and a login older than 10 minutes', async () => {
      expectOAuthError(
        await post(app, 'register/options', { access_token: 'not-a-token', origin: APP }),
        403,
        'passkey_registration_not_allowed',
      );
      const siblingLogin = await directLogin(sibling);
      expectOAuthError(
        await post(app, 'register/options', { access_token: siblingLogin.accessToken, origin: APP }),
        403,
        'passkey_registration_not_allowed',
      );
      const old = await directLogin();
      await query(
        `UPDATE authorization_code SET auth_time = auth_time - interval '11 minutes'
          WHERE access_token_hash = sha256($1::bytea)`,
        [Buffer.from(old.accessToken)],
      );
      expectOAuthError(
        await post(app, 'register/options', { access_token: old.accessToken, origin: APP }),
        403,
        'passkey_registration_not_allowed',
      );
    });

    it('one passkey per login; a challenge answers once and only on its origin; a revoked token registers nothing', async () => {
      const login = await directLogin();
      const first = new SoftwareAuthenticator(APP);
      const options = (await post(app, 'register/options', { access_token: login.accessToken, origin: APP }).expect(200))
        .body as CreationOptions;
      // Answered for another page (origin and binding differ): refused, and the challenge is gone.
      const elsewhere = new SoftwareAuthenticator(SHOP).register(options, { origin: SHOP, rpId: 'shop.example.com' });
      expectOAuthError(
        await post(app, 'register/verify', { access_token: login.accessToken, origin: SHOP, response: elsewhere }),
        400,
        'passkey_challenge_invalid',
      );
      // Another login's token cannot answer this token's challenge.
      const other = await directLogin();
      const answer = first.register(options);
      expectOAuthError(
        await post(app, 'register/verify', { access_token: other.accessToken, origin: APP, response: answer }),
        400,
        'passkey_challenge_invalid',
      );
      // The right token on the right page registers one passkey; the challenge is gone, and the login's grant used up.
      await post(app, 'register/verify', { access_token: login.accessToken, origin: APP, response: answer }).expect(200);
      expectOAuthError(
        await post(app, 'register/verify', { access_token: login.accessToken, origin: APP, response: answer }),
        400,
        'passkey_challenge_invalid',
      );
      expectOAuthError(
        await post(app, 'register/options', { access_token: login.accessToken, origin: APP }),
        403,
        'passkey_registration_not_allowed',
      );

      const revoked = await directLogin();
      await request(stack.auth.url)
        .post('/api/v1/revoke')
        .type('form')
        .auth(app.clientId, app.clientSecret!)
        .send({ token: revoked.accessToken })
        .expect(200);
      expectOAuthError(
        await post(app, 'register/options', { access_token: revoked.accessToken, origin: APP }),
        403,
        'passkey_registration_not_allowed',
      );
    });

    it('the limit of 20 passkeys holds when a passkey is stored: of two logins given options at 19, one registers', async () => {
      const email = uniqueEmail('direct-limit');
      const first = await directLogin(app, email);
      const second = await directLogin(app, email);
      const [user] = await query<{ id: string }>('SELECT id FROM "user" WHERE email = $1', [email]);
      await query(
        `INSERT INTO passkey (organization_id, user_id, credential_id, public_key, sign_count, device_type, backed_up, transports, name, rp_id)
         SELECT $1, $2, decode(md5(random()::text) || md5(random()::text), 'hex'), decode(md5(random()::text), 'hex'), 0, 'multiDevice', true, '{}', 'Old ' || n, 'app.example.com'
           FROM generate_series(1, 19) AS n`,
        [app.organizationId, user.id],
      );
      const answers = [];
      for (const login of [first, second]) {
        const options = (await post(app, 'register/options', { access_token: login.accessToken, origin: APP }).expect(200)).body;
        answers.push({ login, response: new SoftwareAuthenticator(APP).register(options) });
      }
      await post(app, 'register/verify', { access_token: answers[0].login.accessToken, origin: APP, response: answers[0].response }).expect(
        200,
      );
      expectOAuthError(
        await post(app, 'register/verify', { access_token: answers[1].login.accessToken, origin: APP, response: answers[1].response }),
        403,
        'passkey_registration_not_allowed',
      );
      expect(await query('SELECT 1 FROM passkey WHERE user_id = $1', [user.id])).toHaveLength(20);
    });

    it('a blocked user cannot register', async () => {
      const login = await directLogin();
      const [user] = await query<{ id: string }>('SELECT id FROM "user" WHERE email = $1', [login.email]);
      await request(stack.management.url)
        .post(`/api/v2/organization/${app.organizationId}/user/${user.id}`)
        .set('Authorization', `Bearer ${app.apiKey}`)
        .send({ blocked: true })
        .expect(200);
      expectOAuthError(
        await post(app, 'register/options', { access_token: login.accessToken, origin: APP }),
        403,
        'passkey_registration_not_allowed',
      );
    });
  });

  it('answers passkeys_off when the organization turned passkeys off, and wants client credentials', async () => {
    const tenant = await createTenant(stack.management.url, 'pro');
    const off = await createApplication(
      stack.management.url,
      await createOrganization(stack.management.url, tenant, { whitelistDomains: WHITELIST, passkeys: 'off' }),
    );
    expectOAuthError(
      await post(off, 'options', {
        origin: APP,
        redirect_uri: CALLBACK,
        state: 's',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      }),
      403,
      'passkeys_off',
    );
    const anonymous = await request(stack.auth.url).post('/api/v1/passkey_direct/options').send({ origin: APP });
    expect(anonymous.status).toBe(401);
  });

  it("lets users list and remove their own passkeys with their access token, and nobody else's", async () => {
    const login = await directLogin();
    const { registered } = await register(new SoftwareAuthenticator(APP), APP, login);
    const own = (token: string) => request(stack.auth.url).get('/api/v1/passkeys').set('Authorization', `Bearer ${token}`);
    const remove = (token: string, id: string) =>
      request(stack.auth.url).delete(`/api/v1/passkeys/${id}`).set('Authorization', `Bearer ${token}`);

    // The same user has one for the hosted login page too, made before.
    const [{ user_id: userId }] = await query<{ user_id: string }>('SELECT user_id FROM passkey WHERE id = $1', [registered.passkeyId]);
    const hosted = await insertPasskey(app.organizationId, userId, { name: 'Safari on iOS', createdAt: new Date(Date.now() - 60_000) });

    const listed = await own(login.accessToken).expect(200);
    expect(listed.headers['cache-control']).toBe('no-store');
    expect(listed.body).toEqual({
      data: [
        expect.objectContaining({ id: hosted, name: 'Safari on iOS', rpId: null }),
        {
          id: registered.passkeyId,
          name: registered.name,
          deviceType: expect.stringMatching(/^(singleDevice|multiDevice)$/),
          backedUp: expect.any(Boolean),
          // Where it signs in: the application's page it was made on.
          rpId: 'app.example.com',
          createdAt: expect.any(String),
          lastUsedAt: null,
        },
      ],
    });

    // Another user's token sees only their own, and cannot remove this one: the same 404 as an unknown id.
    const other = await directLogin();
    expect((await own(other.accessToken).expect(200)).body).toEqual({ data: [] });
    expect((await remove(other.accessToken, registered.passkeyId).expect(404)).body.error).toBe('not_found');
    // The same address signed in to another organization is another user there: none of these.
    // (The registration's notice comes first to that inbox.)
    expect((await smtp.next(login.email)).text).toContain('A passkey was added');
    const sameAddressElsewhere = await directLogin(otherOrgApp, login.email);
    expect((await own(sameAddressElsewhere.accessToken).expect(200)).body).toEqual({ data: [] });
    await remove(sameAddressElsewhere.accessToken, registered.passkeyId).expect(404);
    // Whoever holds only the address gets an attempt id, not a token; the application's own credentials are no token either.
    const attempt = await authenticateDirect(stack.auth.url, app, {
      email: uniqueEmail('attempt-holder'),
      redirect_uri: `${LOCAL}/callback`,
      state: 's',
    }).expect(200);
    await own(attempt.body.loginAttemptId).expect(401);
    await own(app.clientSecret!).expect(401);
    await request(stack.auth.url).get('/api/v1/passkeys').set('Authorization', basicAuth(app)).expect(401);
    await request(stack.auth.url).get('/api/v1/passkeys').expect(401);
    await own('not-a-token').expect(401);
    expect((await remove(login.accessToken, 'not-a-uuid')).status).toBe(400);

    // A blocked user's token lists and removes nothing.
    const [user] = await query<{ id: string }>('SELECT id FROM "user" WHERE email = $1', [login.email]);
    const block = (blocked: boolean) =>
      request(stack.management.url)
        .post(`/api/v2/organization/${app.organizationId}/user/${user.id}`)
        .set('Authorization', `Bearer ${app.apiKey}`)
        .send({ blocked })
        .expect(200);
    await block(true);
    await own(login.accessToken).expect(401);
    await remove(login.accessToken, registered.passkeyId).expect(401);
    await block(false);

    await remove(login.accessToken, registered.passkeyId).expect(204);
    expect((await own(login.accessToken).expect(200)).body.data.map((passkey: { id: string }) => passkey.id)).toEqual([hosted]);
    await remove(login.accessToken, registered.passkeyId).expect(404);
    const [audit] = await query<{ actor_type: string; actor_id: string; target_id: string }>(
      "SELECT actor_type, actor_id, target_id FROM audit_event WHERE action = 'passkey.remove' AND target_id = $1",
      [registered.passkeyId],
    );
    expect(audit).toMatchObject({ actor_type: 'user', target_id: registered.passkeyId });
    const removedEvents = await query("SELECT 1 FROM webhook_event WHERE type = 'passkey.removed' AND payload->'passkey'->>'id' = $1", [
      registered.passkeyId,
    ]);
    expect(removedEvents).toHaveLength(1);
  });
});
