import request from 'supertest';
import { MAX_PASSKEYS_PER_USER } from '../../apps/auth-api/src/passkeys/passkey-ceremony';
import { PasskeyRepository, Transactions, UserPasskeys } from '@sesame/entities';
import { LoginCompletionService } from '../../apps/auth-api/src/direct-auth/login-completion.service';
import { PasskeyRegistrationService } from '../../apps/auth-api/src/login-page/passkey-registration.service';
import { startStack, Stack } from '../support/apps';
import { expectOAuthError, query, tokenIn } from '../support/direct-auth';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { askedCookies, hiddenFields, openAuthorize, OpenedForm, submitEmail } from '../support/hosted-login';
import { pkcePair, uniqueEmail } from '../support/login';
import { codeIn, SmtpSink } from '../support/smtp-sink';
import {
  emailedLoginWithOffer as offerAfterEmailedLogin,
  offerOn,
  PASSKEY_REDIRECT_URI as REDIRECT_URI,
  PasskeyOffer,
  passkeyPost,
  registerPasskey,
} from '../support/passkeys';
import { CreationOptions, Lies, RequestOptions, SoftwareAuthenticator } from '../support/software-authenticator';

/**
 * The passkey ceremonies of the hosted login page over real HTTP, answered by a software
 * authenticator (test/support/software-authenticator.ts): registering right after an e-mailed
 * login, signing in with the passkey alone (to the callback with code and state, exchanged with
 * PKCE), and every refusal the rules promise.
 */
describe('passkeys on the hosted login page', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let origin: string;
  let app: ApplicationFixture;
  let otherOrgApp: ApplicationFixture;

  /** The sign-in form of a fresh authorize request (its own PKCE pair and state). */
  async function openForm(client: ApplicationFixture = app) {
    const pkce = pkcePair();
    const state = `passkey-${Date.now()}-${Math.random()}`;
    const form = await openAuthorize(stack.auth.url, {
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
      state,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    });
    return { form, pkce, state };
  }

  const post = (path: string, cookie: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    passkeyPost(stack.auth.url, origin, path, cookie, body, headers);

  const emailedLoginWithOffer = (email = uniqueEmail('passkey'), client: ApplicationFixture = app) =>
    offerAfterEmailedLogin(stack.auth.url, smtp, client, email);
  const register = (authenticator: SoftwareAuthenticator, offer: PasskeyOffer) =>
    registerPasskey(stack.auth.url, origin, authenticator, offer);

  /** Asks for sign-in options on a fresh form; the form, its options and the request's PKCE pair. */
  async function signInOptions(client: ApplicationFixture = app) {
    const opened = await openForm(client);
    const options = (await post('options', opened.form.cookie, opened.form.fields).expect(200)).body as RequestOptions;
    return { ...opened, options };
  }

  /** A browser that asked for the e-mail on a fresh form: its cookies, the link's token, the request's state. */
  async function askForLink(prefix: string) {
    const { form, state } = await openForm();
    const email = uniqueEmail(prefix);
    const sent = await submitEmail(stack.auth.url, form, email).expect(200);
    const attemptId = hiddenFields(sent.text).login_attempt_id;
    return { email, cookie: askedCookies(form, sent), state, attemptId, token: tokenIn(await smtp.next(email)) };
  }

  /** "Continue here" of the link page, as its script sends it in a browser that can make a passkey. */
  const continueHere = (token: string, cookie: string, headers: Record<string, string> = { 'Sec-Fetch-Site': 'same-origin' }) =>
    request(stack.auth.url)
      .post('/api/v1/authorize/link')
      .set({ Cookie: cookie, ...headers })
      .type('form')
      .send({ token });

  const verify = (form: OpenedForm, response: Record<string, unknown>) => post('verify', form.cookie, { ...form.fields, response });

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url, { publicHost: 'localhost' });
    origin = new URL(stack.auth.config.http.publicBaseUrl).origin;
    const tenant = await createTenant(stack.management.url, 'pro');
    app = await createApplication(stack.management.url, await createOrganization(stack.management.url, tenant));
    otherOrgApp = await createApplication(stack.management.url, await createOrganization(stack.management.url, tenant));
  });

  afterAll(async () => {
    await stack?.close();
    await smtp.stop();
  });

  it('registers after an e-mailed login, then signs in with the passkey alone: code and state at the callback, exchanged with PKCE', async () => {
    const authenticator = new SoftwareAuthenticator(origin);
    const offer = await emailedLoginWithOffer();
    expect(offer.page).toContain('Use a passkey next time');
    expect(offer.page).toContain('id="passkey-skip"');
    expect(new URL(offer.continueUrl).searchParams.get('code')).toBeTruthy();
    const options = await register(authenticator, offer);
    expect(options.rp.id).toBe('localhost');
    expect(options).toMatchObject({
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });

    const [stored] = await query<{ user_id: string; sign_count: string; device_type: string; backed_up: boolean }>(
      'SELECT p.user_id, p.sign_count, p.device_type, p.backed_up FROM passkey p JOIN "user" u ON u.id = p.user_id WHERE u.email = $1',
      [offer.email],
    );
    expect(stored).toMatchObject({ sign_count: '0', device_type: 'singleDevice', backed_up: false });
    const [audit] = await query('SELECT actor_type, actor_id, action, target_type FROM audit_event WHERE action = $1 AND actor_id = $2', [
      'passkey.register',
      stored.user_id,
    ]);
    expect(audit).toMatchObject({ actor_type: 'user', target_type: 'passkey' });
    const events = await query<{ payload: { user: { email: string } } }>(
      "SELECT payload FROM webhook_event WHERE type = 'passkey.registered'",
    );
    expect(events.map((event) => event.payload.user.email)).toContain(offer.email);
    // The user hears of every new passkey: an e-mailed login completed in someone else's browser must not become their access unnoticed.
    const notice = await smtp.next(offer.email);
    const [organization] = await query<{ name: string }>('SELECT name FROM organization WHERE id = $1', [app.organizationId]);
    expect(notice.subject).toBe(`A passkey was added to your ${organization.name} sign-in`);
    expect(notice.text).toMatch(/A passkey was added to your .+ sign-in: .+, on \d{4}-\d\d-\d\d \d\d:\d\d UTC, from [0-9a-f.:]+\./);
    expect(notice.text).toContain('they can remove the passkey');

    const { form, pkce, state, options: requestOptions } = await signInOptions();
    expect(requestOptions).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(requestOptions).not.toHaveProperty('allowCredentials.0');
    const signedIn = await verify(form, authenticator.authenticate(requestOptions)).expect(200);
    const callback = new URL(signedIn.body.redirect);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe(state);
    const tokens = await request(stack.auth.url)
      .post('/api/v1/verify')
      .type('form')
      .auth(app.clientId, app.clientSecret!)
      .send({ code: callback.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier })
      .expect(200);
    const userinfo = await request(stack.auth.url)
      .get('/api/v1/userinfo')
      .set('Authorization', `Bearer ${tokens.body.access_token}`)
      .expect(200);
    expect(userinfo.body).toMatchObject({ sub: stored.user_id, email: offer.email });
    const [attempt] = await query(
      "SELECT status, passkey_id IS NOT NULL AS by_passkey FROM login_attempt WHERE email = $1 AND sentence = ''",
      [offer.email],
    );
    expect(attempt).toEqual({ status: 'completed', by_passkey: true });
    const activity = await request(stack.management.url)
      .get(`/api/v2/organization/${app.organizationId}/login_attempt`)
      .query({ email: offer.email })
      .set('Authorization', `Bearer ${app.apiKey}`)
      .expect(200);
    expect(activity.body.data.map((item: { method: string; status: string }) => [item.method, item.status])).toEqual([
      ['passkey', 'completed'],
      ['email', 'completed'],
    ]);
    const signIns = await query("SELECT payload FROM webhook_event WHERE type = 'user.signed_in' AND payload->'user'->>'id' = $1", [
      stored.user_id,
    ]);
    expect(signIns).toHaveLength(2);
  });

  it("a renamed user's passkey signs in as that user, with the new e-mail; a sign-in locks the user's row until it commits", async () => {
    const authenticator = new SoftwareAuthenticator(origin);
    const offer = await emailedLoginWithOffer();
    await register(authenticator, offer);
    await smtp.next(offer.email);
    const [user] = await query<{ id: string }>('SELECT id FROM "user" WHERE email = $1', [offer.email]);
    const renamed = uniqueEmail('renamed');
    // The management API does not change addresses today; an operator (or a later feature) may, in the database.
    await query('UPDATE "user" SET email = $2 WHERE id = $1', [user.id, renamed]);
    const { form, pkce, options } = await signInOptions();
    const callback = new URL((await verify(form, authenticator.authenticate(options)).expect(200)).body.redirect);
    const tokens = await request(stack.auth.url)
      .post('/api/v1/verify')
      .type('form')
      .auth(app.clientId, app.clientSecret!)
      .send({ code: callback.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier })
      .expect(200);
    const userinfo = await request(stack.auth.url).get('/api/v1/userinfo').set('Authorization', `Bearer ${tokens.body.access_token}`);
    expect(userinfo.body).toMatchObject({ sub: user.id, email: renamed });
    expect(await query('SELECT id FROM "user" WHERE email = $1', [offer.email])).toEqual([]);

    // The sign-in completes as the e-mail it read: the user's row stays locked until it commits, so a
    // concurrent rename (and another user taking the old address) cannot make it sign in someone else.
    const credentialId = Buffer.from(authenticator.credentials[0].id, 'base64url');
    await stack.auth.app.get(Transactions).run(async (manager) => {
      const hosted = { id: 'localhost', hostedId: 'localhost' };
      const locked = await stack.auth.app.get(PasskeyRepository).lockForSignIn(manager, app.organizationId, credentialId, hosted);
      expect(locked).toMatchObject({ userId: user.id, email: renamed });
      await expect(
        query(`SET lock_timeout = '300ms'; UPDATE "user" SET email = 'someone-else@example.com' WHERE id = '${user.id}'`),
      ).rejects.toThrow(/lock timeout/);
    });
  });

  it('the offer also follows an approval from another device, collected by the page that asked; without the page’s report, none', async () => {
    const { form } = await openForm();
    const email = uniqueEmail('approved');
    const sent = await submitEmail(stack.auth.url, form, email).expect(200);
    const approvalNumber = /<strong id="approval-number">(\d\d)<\/strong>/.exec(sent.text)![1];
    const cookie = askedCookies(form, sent);
    const token = tokenIn(await smtp.next(email));
    await request(stack.auth.url).post('/api/v1/login_link/approve').type('form').send({ token, number: approvalNumber }).expect(200);
    const { csrf: _, ...params } = hiddenFields(sent.text);
    const offered = await request(stack.auth.url)
      .get('/api/v1/authorize/status')
      .query({ ...params, passkey_offer: '1' })
      .set('Cookie', cookie)
      .expect(200);
    expect(offered.text).toContain('Use a passkey next time');
    const continueUrl = new URL(/data-continue-url="([^"]+)"/.exec(offered.text)![1].replace(/&amp;/g, '&'));
    expect(continueUrl.searchParams.get('state')).toBe(params.state);
    expect(continueUrl.searchParams.get('code')).toBeTruthy();

    // The code form of a page that did not report a platform authenticator goes straight on.
    const plain = await openForm();
    const plainEmail = uniqueEmail('plain');
    const plainSent = await submitEmail(stack.auth.url, plain.form, plainEmail).expect(200);
    const plainCookie = askedCookies(plain.form, plainSent);
    const code = codeIn(await smtp.next(plainEmail));
    await request(stack.auth.url)
      .post('/api/v1/authorize/code')
      .set('Cookie', plainCookie)
      .type('form')
      .send({ ...hiddenFields(plainSent.text), code })
      .expect(303);
  });

  it('the offer also follows the e-mailed link used in the browser that asked: its page sends "Continue here" to the hosted page', async () => {
    const { email, cookie, state, token } = await askForLink('link-here');
    const linkPage = await request(stack.auth.url).get('/api/v1/login_link').query({ token }).set('Cookie', cookie).expect(200);
    expect(linkPage.text).toContain("document.getElementById('continue-here').action = 'authorize/link'");

    const offered = await continueHere(token, cookie).expect(200);
    expect(offered.text).toContain('Use a passkey next time');
    const offer = offerOn(offered.text, { email, cookie, client: app });
    const continueUrl = new URL(offer.continueUrl);
    expect(continueUrl.searchParams.get('state')).toBe(state);
    expect(continueUrl.searchParams.get('code')).toBeTruthy();
    // The offer registers a passkey of this user, as after a code typed on the page.
    await register(new SoftwareAuthenticator(origin), offer);
    expect((await smtp.next(email)).subject).toMatch(/^A passkey was added/);
  });

  it('"Continue here" to the hosted page offers nothing to a browser that did not ask: the link is used and goes straight on', async () => {
    const { cookie, token, attemptId } = await askForLink('link-elsewhere');
    // Another site's post is refused, and changes nothing.
    await continueHere(token, cookie, { 'Sec-Fetch-Site': 'cross-site' }).expect(403);
    // The attempt's id (shown to the browser that asked, sent in its requests) is no link.
    await continueHere(attemptId, cookie).expect(404);

    // Who holds the e-mail but not the browser, with cookies of a login of its own: the link works
    // as anywhere (its own POST does the same), but no passkey of theirs can be added to this user.
    const holder = await askForLink('link-holder');
    const used = await continueHere(token, holder.cookie).expect(303);
    expect(new URL(used.headers.location).searchParams.get('code')).toBeTruthy();
    // Used, the link goes back with an error, even in the browser that asked.
    const again = await continueHere(token, cookie).expect(303);
    expect(new URL(again.headers.location).searchParams.get('error')).toBe('login_link_used');

    // The browser that asked, without the page's CSRF cookie (gone after an hour), gets no offer either.
    const later = await askForLink('link-later');
    const attemptOnly = later.cookie.split('; ')[1];
    await continueHere(later.token, attemptOnly).expect(303);
  });

  it('an offer that fails (Postgres away) keeps nothing from the application: the login goes on with its code', async () => {
    const failing = jest.spyOn(stack.auth.app.get(PasskeyRegistrationService), 'offer').mockRejectedValueOnce(new Error('connection lost'));
    try {
      const { cookie, token, state } = await askForLink('offer-fails');
      const callback = new URL((await continueHere(token, cookie).expect(303)).headers.location);
      expect(callback.searchParams.get('state')).toBe(state);
      expect(callback.searchParams.get('code')).toBeTruthy();
      expect(failing).toHaveBeenCalled();
    } finally {
      failing.mockRestore();
    }
  });

  describe('refusals', () => {
    let authenticator: SoftwareAuthenticator;
    let email: string;

    beforeAll(async () => {
      authenticator = new SoftwareAuthenticator(origin);
      const offer = await emailedLoginWithOffer();
      email = offer.email;
      await register(authenticator, offer);
    });

    it('a challenge works once: its second use is refused, and so is one of another authorize request or browser', async () => {
      const first = await signInOptions();
      const answer = authenticator.authenticate(first.options);
      await verify(first.form, answer).expect(200);
      expectOAuthError(await verify(first.form, authenticator.authenticate(first.options)), 400, 'passkey_challenge_invalid');

      // Another request's challenge, answered for this form: not this request's.
      const other = await signInOptions();
      const mine = await openForm();
      expectOAuthError(await verify(mine.form, authenticator.authenticate(other.options)), 400, 'passkey_challenge_invalid');
      // The same request's fields with another browser's CSRF pair.
      const stranger = await openForm();
      const strangerForm = {
        ...other.form,
        cookie: stranger.form.cookie,
        fields: { ...other.form.fields, csrf: stranger.form.fields.csrf },
      };
      expectOAuthError(await verify(strangerForm, authenticator.authenticate(other.options)), 400, 'passkey_challenge_invalid');
    });

    it('a challenge stays used when the sign-in then fails (here the completion, as a database error would): it is refused after', async () => {
      const { form, options } = await signInOptions();
      const failing = jest
        .spyOn(stack.auth.app.get(LoginCompletionService), 'complete')
        .mockRejectedValueOnce(new Error('connection lost'));
      try {
        expect((await verify(form, authenticator.authenticate(options))).status).toBe(500);
      } finally {
        failing.mockRestore();
      }
      expectOAuthError(await verify(form, authenticator.authenticate(options)), 400, 'passkey_challenge_invalid');
    });

    it('a registration challenge stays used when storing the passkey then fails; the offer stays for a new one', async () => {
      const offer = await emailedLoginWithOffer();
      const body = { client_id: app.clientId, registration: offer.registration, csrf: offer.csrf };
      const options = (await post('register/options', offer.cookie, body).expect(200)).body as CreationOptions;
      const answer = new SoftwareAuthenticator(origin).register(options);
      const failing = jest.spyOn(stack.auth.app.get(UserPasskeys), 'registered').mockRejectedValueOnce(new Error('connection lost'));
      try {
        expect((await post('register/verify', offer.cookie, { ...body, response: answer })).status).toBe(500);
      } finally {
        failing.mockRestore();
      }
      expectOAuthError(await post('register/verify', offer.cookie, { ...body, response: answer }), 403, 'passkey_registration_not_allowed');
      const stored = () => query('SELECT p.id FROM passkey p JOIN "user" u ON u.id = p.user_id WHERE u.email = $1', [offer.email]);
      expect(await stored()).toEqual([]);
      await register(new SoftwareAuthenticator(origin), offer);
      expect(await stored()).toHaveLength(1);
    });

    it('a wrong origin or RP ID, or no user verification, is refused (and uses the challenge up)', async () => {
      for (const lies of [{ origin: 'http://evil.example' }, { rpId: 'evil.example' }, { userVerified: false }]) {
        const { form, options } = await signInOptions();
        expectOAuthError(await verify(form, authenticator.authenticate(options, lies)), 400, 'passkey_refused');
        expectOAuthError(await verify(form, authenticator.authenticate(options)), 400, 'passkey_challenge_invalid');
      }
    });

    it('a sign count going backwards is refused (a cloned authenticator), as the library advises', async () => {
      const { form, options } = await signInOptions();
      await verify(form, authenticator.authenticate(options, { signCount: 100 })).expect(200);
      const again = await signInOptions();
      expectOAuthError(await verify(again.form, authenticator.authenticate(again.options, { signCount: 50 })), 400, 'passkey_refused');
      const [row] = await query<{ sign_count: string }>(
        'SELECT p.sign_count FROM passkey p JOIN "user" u ON u.id = p.user_id WHERE u.email = $1',
        [email],
      );
      expect(row.sign_count).toBe('100');
    });

    it('a passkey of another organization signs in nobody here, nor does one naming another user', async () => {
      const { form, options } = await signInOptions(otherOrgApp);
      expectOAuthError(await verify(form, authenticator.authenticate(options)), 400, 'passkey_refused');
      const mine = await signInOptions();
      const otherUser = Buffer.from('00000000-0000-4000-8000-000000000000').toString('base64url');
      expectOAuthError(
        await verify(mine.form, authenticator.authenticate(mine.options, { userHandle: otherUser })),
        400,
        'passkey_refused',
      );
    });

    it("a blocked user's passkey stops working, and works again once unblocked; a deleted user's passkeys go with them", async () => {
      const [user] = await query<{ id: string }>('SELECT id FROM "user" WHERE email = $1', [email]);
      const setBlocked = (blocked: boolean) =>
        request(stack.management.url)
          .post(`/api/v2/organization/${app.organizationId}/user/${user.id}`)
          .set('Authorization', `Bearer ${app.apiKey}`)
          .send({ blocked })
          .expect(200);
      await setBlocked(true);
      const blocked = await signInOptions();
      expectOAuthError(await verify(blocked.form, authenticator.authenticate(blocked.options)), 400, 'passkey_refused');
      await setBlocked(false);
      const unblocked = await signInOptions();
      await verify(unblocked.form, authenticator.authenticate(unblocked.options)).expect(200);

      // Another user, deleted: their passkey row goes (FK cascade) and their passkey is refused.
      const doomed = new SoftwareAuthenticator(origin);
      const offer = await emailedLoginWithOffer();
      await register(doomed, offer);
      const [gone] = await query<{ id: string }>('SELECT id FROM "user" WHERE email = $1', [offer.email]);
      await request(stack.management.url)
        .delete(`/api/v2/organization/${app.organizationId}/user/${gone.id}`)
        .set('Authorization', `Bearer ${app.apiKey}`)
        .expect(204);
      expect(await query('SELECT id FROM passkey WHERE user_id = $1', [gone.id])).toEqual([]);
      const after = await signInOptions();
      expectOAuthError(await verify(after.form, doomed.authenticate(after.options)), 400, 'passkey_refused');
    });

    it('registering is refused without an e-mailed login just completed in this browser', async () => {
      const offer = await emailedLoginWithOffer();
      const body = { client_id: app.clientId, registration: offer.registration, csrf: offer.csrf };
      // Without the browser's attempt cookie, with another browser's, or with a made-up grant.
      const csrfOnly = offer.cookie.split('; ')[0];
      expectOAuthError(await post('register/options', csrfOnly, body), 403, 'passkey_registration_not_allowed');
      const other = await emailedLoginWithOffer();
      expectOAuthError(
        await post('register/options', other.cookie, { ...body, csrf: other.csrf }),
        403,
        'passkey_registration_not_allowed',
      );
      const madeUp = { ...body, registration: '00000000-0000-4000-8000-000000000000' };
      expectOAuthError(await post('register/options', offer.cookie, madeUp), 403, 'passkey_registration_not_allowed');
      // A signed-in user's ordinary form (no offer) has nothing to register with either.
      const { form } = await openForm();
      expectOAuthError(
        await post('register/verify', form.cookie, { ...madeUp, csrf: form.fields.csrf, response: {} }),
        403,
        'passkey_registration_not_allowed',
      );

      // The offer registers one passkey: a second registration with it is refused.
      const first = new SoftwareAuthenticator(origin);
      await register(first, offer);
      expectOAuthError(await post('register/options', offer.cookie, body), 403, 'passkey_registration_not_allowed');
    });

    it('a challenge of a registration answered twice, or for another origin, is refused; the offer stays for a new challenge', async () => {
      const offer = await emailedLoginWithOffer();
      const body = { client_id: app.clientId, registration: offer.registration, csrf: offer.csrf };
      const liar = new SoftwareAuthenticator(origin);
      const options = (await post('register/options', offer.cookie, body).expect(200)).body as CreationOptions;
      expectOAuthError(
        await post('register/verify', offer.cookie, { ...body, response: liar.register(options, { origin: 'http://evil.example' }) }),
        400,
        'passkey_refused',
      );
      expectOAuthError(
        await post('register/verify', offer.cookie, { ...body, response: liar.register(options) }),
        403,
        'passkey_registration_not_allowed',
      );
      await register(new SoftwareAuthenticator(origin), offer);
    });

    it('a credential id over 1023 bytes is refused; of the transports reported only known ones are kept, and a non-array is ignored', async () => {
      const registerWith = async (lies: Lies) => {
        const offer = await emailedLoginWithOffer();
        const body = { client_id: app.clientId, registration: offer.registration, csrf: offer.csrf };
        const options = (await post('register/options', offer.cookie, body).expect(200)).body as CreationOptions;
        const answer = await post('register/verify', offer.cookie, {
          ...body,
          response: new SoftwareAuthenticator(origin).register(options, lies),
        });
        const stored = await query<{ transports: string[] }>(
          'SELECT p.transports FROM passkey p JOIN "user" u ON u.id = p.user_id WHERE u.email = $1',
          [offer.email],
        );
        return { answer, stored };
      };
      const long = await registerWith({ credentialIdBytes: 1100 });
      expectOAuthError(long.answer, 400, 'passkey_refused');
      expect(long.stored).toEqual([]);
      const atTheLimit = await registerWith({ credentialIdBytes: 1023 });
      expect(atTheLimit.answer.status).toBe(200);

      const junk = await registerWith({ transports: ['usb', 'internal', 'evil', 42, { x: 1 }, 'hybrid', 'smart-card', 'internal'] });
      expect(junk.answer.status).toBe(200);
      expect(junk.stored).toEqual([{ transports: ['usb', 'internal', 'hybrid', 'smart-card'] }]);
      for (const transports of ['internal', { 0: 'usb' }, 7]) {
        const odd = await registerWith({ transports });
        expect(odd.answer.status).toBe(200);
        expect(odd.stored).toEqual([{ transports: [] }]);
      }
    });

    it(`the limit of ${MAX_PASSKEYS_PER_USER} passkeys holds when a passkey is stored: of two offers made at ${MAX_PASSKEYS_PER_USER - 1}, one registers`, async () => {
      const email = uniqueEmail('limit');
      const first = await emailedLoginWithOffer(email);
      const [user] = await query<{ id: string }>('SELECT id FROM "user" WHERE email = $1', [email]);
      await query(
        `INSERT INTO passkey (organization_id, user_id, credential_id, public_key, device_type, backed_up, name)
         SELECT $1, $2, uuid_send(gen_random_uuid()), '\\x00', 'singleDevice', false, 'Earlier' FROM generate_series(1, $3::int)`,
        [app.organizationId, user.id, MAX_PASSKEYS_PER_USER - 1],
      );
      const second = await emailedLoginWithOffer(email);
      expect(second.registration).toBeTruthy();
      await register(new SoftwareAuthenticator(origin), first);
      const body = { client_id: app.clientId, registration: second.registration, csrf: second.csrf };
      const options = (await post('register/options', second.cookie, body).expect(200)).body as CreationOptions;
      const refused = await post('register/verify', second.cookie, {
        ...body,
        response: new SoftwareAuthenticator(origin).register(options),
      });
      expectOAuthError(refused, 403, 'passkey_registration_not_allowed');
      expect(refused.body.error_description).toContain(`${MAX_PASSKEYS_PER_USER} passkeys`);
      expect(await query('SELECT id FROM passkey WHERE user_id = $1', [user.id])).toHaveLength(MAX_PASSKEYS_PER_USER);
    });

    it('the JSON endpoints are CSRF-protected like the form: no CSRF value, another cookie, or another site is refused', async () => {
      const { form } = await openForm();
      const { csrf: _, ...withoutCsrf } = form.fields;
      expectOAuthError(await post('options', form.cookie, withoutCsrf), 400, 'invalid_request');
      expectOAuthError(await post('options', form.cookie, { ...form.fields, csrf: 'x'.repeat(43) }), 403, 'csrf_failed');
      expectOAuthError(await post('options', 'sesame_csrf=someone-else', form.fields), 403, 'csrf_failed');
      expectOAuthError(
        await post('options', form.cookie, form.fields, { Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site' }),
        403,
        'cross_site_request',
      );
      expect(await query('SELECT id FROM passkey_challenge WHERE binding IS NULL')).toEqual([]);
    });

    it('an organization with passkeys off neither offers nor accepts them', async () => {
      const tenant = await createTenant(stack.management.url, 'pro');
      const off = await createApplication(
        stack.management.url,
        await createOrganization(stack.management.url, tenant, { passkeys: 'off' }),
      );
      const { form } = await openForm(off);
      expect(form.response.text).not.toContain('passkey-sign-in');
      expect(form.response.text).toContain('autocomplete="email"');
      expectOAuthError(await post('options', form.cookie, form.fields), 403, 'passkeys_off');
      const email = uniqueEmail('off');
      const sent = await submitEmail(stack.auth.url, form, email).expect(200);
      const cookie = askedCookies(form, sent);
      const code = codeIn(await smtp.next(email));
      await request(stack.auth.url)
        .post('/api/v1/authorize/code')
        .set('Cookie', cookie)
        .type('form')
        .send({ ...hiddenFields(sent.text), code, passkey_offer: '1' })
        .expect(303);
    });

    it('required: the offer has no skip for a user without a passkey, and a skip cookie does not hide it', async () => {
      const tenant = await createTenant(stack.management.url, 'pro');
      const required = await createApplication(
        stack.management.url,
        await createOrganization(stack.management.url, tenant, { passkeys: 'required' }),
      );
      const offer = await emailedLoginWithOffer(uniqueEmail('required'), required);
      expect(offer.page).not.toContain('id="passkey-skip"');
      expect(offer.page).toContain('asks you to create a passkey');
    });
  });
});
