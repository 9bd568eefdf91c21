import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { askedCookies, hiddenFields, hostedLogin, openAuthorize, sentenceIn, submitEmail } from '../support/hosted-login';
import { decodeJwt } from 'jose';
import { basicAuth, followLink, pkcePair, uniqueEmail } from '../support/login';
import { codeIn, linkIn, SmtpSink } from '../support/smtp-sink';
import { query, tokenIn } from '../support/direct-auth';
import { verify } from '../support/tokens';

/**
 * GET/POST /v1/authorize, the hosted login page: every parameter is checked before anything is
 * shown; an unknown client or an unacceptable redirect_uri is an error page and never a
 * redirect (RFC 6749 §4.1.2.1); other errors go back to the application with error,
 * error_description and state. Then the form itself: CSRF, e-mail validation, languages, plans.
 */
describe('hosted login page /v1/authorize', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let web: ApplicationFixture;
  let webStrict: ApplicationFixture;
  let android: ApplicationFixture;
  let ios: ApplicationFixture;
  let desktop: ApplicationFixture;
  const { challenge } = pkcePair();
  const pkce = { code_challenge: challenge, code_challenge_method: 'S256' };

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    const tenant = await createTenant(stack.management.url, 'free');
    const organization = await createOrganization(stack.management.url, tenant, {
      name: 'Hosted Org',
      whitelistDomains: ['https://app.example.com', 'https://*.example.org', 'http://localhost:4000'],
    });
    web = await createApplication(stack.management.url, organization, { type: 'web', name: 'Hosted Web' });
    webStrict = await createApplication(stack.management.url, organization, {
      type: 'web',
      callbackUrls: ['https://app.example.com/auth/callback'],
    });
    android = await createApplication(stack.management.url, organization, {
      type: 'android',
      callbackUrls: ['com.example.notes:/oauth/callback', 'https://notes.example.com/android/callback'],
    });
    ios = await createApplication(stack.management.url, organization, { type: 'ios', callbackUrls: ['com.example.notes.ios:/cb'] });
    desktop = await createApplication(stack.management.url, organization, {
      type: 'desktop',
      callbackUrls: ['http://127.0.0.1/callback', 'http://[::1]/callback'],
    });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  const authorize = (query: Record<string, string | undefined>, headers: Record<string, string> = {}) =>
    request(stack.auth.url)
      .get('/api/v1/authorize')
      .query(Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)))
      .set(headers);
  const base = (app: ApplicationFixture, redirectUri: string, extra: Record<string, string | undefined> = {}) => ({
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: redirectUri,
    state: 'st-1',
    ...pkce, // every application type must use PKCE here
    ...extra,
  });

  function expectErrorPage(response: request.Response, heading: RegExp): void {
    expect(response.status).toBe(400);
    expect(response.headers.location).toBeUndefined();
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(response.text).toMatch(heading);
  }

  function expectErrorRedirect(response: request.Response, to: string, error: string, state: string | null): URL {
    expect(response.status).toBe(302);
    const location = new URL(response.headers.location);
    expect(`${location.protocol}${location.host ? `//${location.host}` : ''}${location.pathname}`).toBe(to);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('error_description')).toEqual(expect.any(String));
    expect(location.searchParams.get('state')).toBe(state);
    expect(location.searchParams.has('code')).toBe(false);
    expect(response.headers['cache-control']).toBe('no-store');
    return location;
  }

  describe('an unknown client or an unacceptable redirect_uri: an error page, never a redirect', () => {
    it.each([
      ['no client_id', { client_id: undefined }],
      ['an unknown client_id', { client_id: 'no-such-client' }],
      ['an absurdly long client_id', { client_id: 'x'.repeat(500) }],
    ])('%s', async (_, change) => {
      expectErrorPage(await authorize({ ...base(web, 'https://app.example.com/cb'), ...change }), /Unknown application/);
    });

    it.each<[string, () => ApplicationFixture, string | undefined]>([
      ['web: no redirect_uri', () => web, undefined],
      ['web: an origin outside the whitelist', () => web, 'https://evil.example.net/cb'],
      ['web: a look-alike host', () => web, 'https://app.example.com.evil.net/cb'],
      ['web: http on a public host', () => web, 'http://app.example.com/cb'],
      ['web: another port of a whitelisted host', () => web, 'https://app.example.com:8443/cb'],
      ['web: the wildcard’s own domain (subdomains only)', () => web, 'https://example.org/cb'],
      ['web: a fragment', () => web, 'https://app.example.com/cb#x'],
      ['web: credentials', () => web, 'https://user:pw@app.example.com/cb'],
      ['web: a relative URL', () => web, '/cb'],
      ['web: javascript:', () => web, 'javascript:alert(1)'],
      ['web with registered callbacks: another path on the whitelisted origin', () => webStrict, 'https://app.example.com/other'],
      ['android: another path of the custom scheme', () => android, 'com.example.notes:/other'],
      ['android: another custom scheme', () => android, 'com.evil.notes:/oauth/callback'],
      ['android: the registered URL with a query added', () => android, 'com.example.notes:/oauth/callback?x=1'],
      ['ios: another app’s scheme', () => ios, 'com.example.notes:/oauth/callback'],
      ['desktop: localhost, which is not loopback for native apps (RFC 8252 §8.3)', () => desktop, 'http://localhost:5000/callback'],
      ['desktop: another loopback address than the registered one', () => desktop, 'http://127.0.0.2:5000/callback'],
      ['desktop: another path on the loopback', () => desktop, 'http://127.0.0.1:5000/other'],
      ['desktop: https on the loopback (the registration is http)', () => desktop, 'https://127.0.0.1:5000/callback'],
    ])('%s', async (_, app, redirectUri) => {
      expectErrorPage(await authorize(base(app(), 'x', { redirect_uri: redirectUri })), /This sign-in request cannot continue/);
    });

    it('an unacceptable redirect_uri wins over every other error (nothing is sent there)', async () => {
      expectErrorPage(
        await authorize({ client_id: desktop.clientId, redirect_uri: 'http://localhost:5000/callback', response_type: 'token' }),
        /This sign-in request cannot continue/,
      );
    });
  });

  describe('other errors go back to the application with error, error_description and state', () => {
    it.each<[string, () => ApplicationFixture, string, Record<string, string | undefined>, string, string | null]>([
      ['no response_type', () => web, 'https://app.example.com/cb', { response_type: undefined }, 'unsupported_response_type', 'st-1'],
      ['response_type=token', () => web, 'https://app.example.com/cb', { response_type: 'token' }, 'unsupported_response_type', 'st-1'],
      ['no state', () => web, 'https://app.example.com/cb', { state: undefined }, 'invalid_request', null],
      [
        'a native app without PKCE',
        () => android,
        'com.example.notes:/oauth/callback',
        { code_challenge: undefined, code_challenge_method: undefined },
        'invalid_request',
        'st-1',
      ],
      [
        'a web app without PKCE (RFC 9700 §2.1.1)',
        () => web,
        'https://app.example.com/cb',
        { code_challenge: undefined, code_challenge_method: undefined },
        'invalid_request',
        'st-1',
      ],
      [
        'a nonce with a control character',
        () => desktop,
        'http://127.0.0.1:5000/callback',
        { nonce: 'a\u0000b' },
        'invalid_request',
        'st-1',
      ],
      [
        'code_challenge_method=plain',
        () => desktop,
        'http://127.0.0.1:5000/callback',
        { code_challenge_method: 'plain' },
        'invalid_request',
        'st-1',
      ],
      [
        'a code_challenge without its method',
        () => desktop,
        'http://127.0.0.1:5000/callback',
        { code_challenge_method: undefined },
        'invalid_request',
        'st-1',
      ],
      [
        'a code_challenge that is no SHA-256 digest',
        () => ios,
        'com.example.notes.ios:/cb',
        { code_challenge: 'too-short' },
        'invalid_request',
        'st-1',
      ],
      [
        'a web app’s malformed code_challenge',
        () => web,
        'https://app.example.com/cb',
        { ...pkce, code_challenge: 'x'.repeat(44) },
        'invalid_request',
        'st-1',
      ],
    ])('%s', async (_, app, redirectUri, change, error, state) => {
      expectErrorRedirect(await authorize(base(app(), redirectUri, change)), redirectUri, error, state);
    });

    it('a state longer than 1024 characters is invalid_request', async () => {
      const response = await authorize(base(web, 'https://app.example.com/cb', { state: 's'.repeat(1025) }));
      expect(response.status).toBe(302);
      expect(new URL(response.headers.location).searchParams.get('error')).toBe('invalid_request');
    });

    it('keeps the redirect_uri’s own query parameters and redirects to the service’s serialisation of it', async () => {
      const response = await authorize(base(web, 'https://APP.example.com:443/cb?tenant=a%20b', { response_type: 'token' }));
      const location = new URL(response.headers.location);
      expect(location.origin).toBe('https://app.example.com');
      expect(location.searchParams.get('tenant')).toBe('a b');
      expect(location.searchParams.get('error')).toBe('unsupported_response_type');
    });
  });

  describe('acceptable redirect_uris show the form', () => {
    it.each<[string, () => ApplicationFixture, string]>([
      ['web: any path on a whitelisted origin', () => web, 'https://app.example.com/any/path?x=1'],
      ['web: a subdomain of a wildcard entry', () => web, 'https://eu.example.org/cb'],
      ['web: the same origin spelled differently', () => web, 'https://APP.EXAMPLE.COM:443/cb'],
      ['web: a whitelisted loopback origin over http', () => web, 'http://localhost:4000/callback'],
      ['web with registered callbacks: exactly one of them', () => webStrict, 'https://app.example.com/auth/callback'],
      ['android: the custom scheme callback', () => android, 'com.example.notes:/oauth/callback'],
      ['android: the https (App Link) callback', () => android, 'https://notes.example.com/android/callback'],
      ['ios: its custom scheme callback', () => ios, 'com.example.notes.ios:/cb'],
      ['desktop: 127.0.0.1 on a random port', () => desktop, `http://127.0.0.1:${49152 + Math.floor(Math.random() * 16000)}/callback`],
      ['desktop: [::1] on a random port', () => desktop, `http://[::1]:${49152 + Math.floor(Math.random() * 16000)}/callback`],
      ['desktop: the loopback callback without a port', () => desktop, 'http://127.0.0.1/callback'],
    ])('%s', async (_, app, redirectUri) => {
      const form = await openAuthorize(stack.auth.url, base(app(), redirectUri));
      expect(form.response.text).toContain('Sign in to Hosted Org');
      expect(form.fields).toMatchObject({ response_type: 'code', client_id: app().clientId, redirect_uri: redirectUri, state: 'st-1' });
      expect(form.fields.csrf).toEqual(expect.any(String));
      expect(form.response.headers['content-security-policy']).toMatch(/form-action 'self'/);
      expect(form.response.headers['x-frame-options']).toBe('DENY');
      expect(form.response.headers['set-cookie'][0]).toMatch(
        /^sesame_csrf=[A-Za-z0-9_-]+; Path=\/api\/v1\/authorize; HttpOnly; SameSite=Strict; Max-Age=\d+$/,
      );
    });

    it('prefills login_hint and carries code_challenge through the form', async () => {
      const form = await openAuthorize(stack.auth.url, base(desktop, 'http://127.0.0.1:5001/callback', { login_hint: 'ada@example.com' }));
      expect(form.response.text).toContain('value="ada@example.com"');
      expect(form.fields).toMatchObject({ code_challenge: challenge, code_challenge_method: 'S256' });
    });

    it('escapes what it echoes', async () => {
      const form = await openAuthorize(stack.auth.url, base(web, 'https://app.example.com/cb', { state: '"><script>alert(1)</script>' }));
      expect(form.response.text).not.toContain('<script>');
      expect(form.fields.state).toBe('"><script>alert(1)</script>');
    });
  });

  describe('the form', () => {
    const desktopQuery = (port: number) => base(desktop, `http://127.0.0.1:${port}/callback`);

    it('sends the link and shows the sentence the link page will show; the link ends at the redirect_uri with code and state', async () => {
      const pair = pkcePair();
      const query = { ...base(desktop, 'http://127.0.0.1:5002/callback'), code_challenge: pair.challenge, state: 'round-trip' };
      const form = await openAuthorize(stack.auth.url, query);
      const email = uniqueEmail('form');
      const sent = await submitEmail(stack.auth.url, form, email).expect(200);
      expect(sent.text).toContain('Check your inbox');
      expect(sent.text).toContain(email);
      expect(sent.headers['cache-control']).toBe('no-store');
      const sentence = sentenceIn(sent.text);

      const link = new URL(linkIn(await smtp.next(email)));
      const page = await request(stack.auth.url).get(`${link.pathname}${link.search}`).expect(200);
      expect(sentenceIn(page.text)).toBe(sentence);

      const continued = await request(stack.auth.url)
        .post('/api/v1/login_link')
        .type('form')
        .send({ token: link.searchParams.get('token') })
        .expect(303);
      const callback = new URL(continued.headers.location);
      expect(`${callback.origin}${callback.pathname}`).toBe('http://127.0.0.1:5002/callback');
      expect(callback.searchParams.get('state')).toBe('round-trip');
      await verify(stack.auth.url, {
        client_id: desktop.clientId,
        code: callback.searchParams.get('code')!,
        redirect_uri: query.redirect_uri,
        code_verifier: pair.verifier,
      }).expect(200);
    });

    it('the page’s watch answers the status and collects nothing: an approval is collected once, by status, in the browser that asked', async () => {
      const form = await openAuthorize(stack.auth.url, base(web, 'http://localhost:4000/callback'));
      const email = uniqueEmail('watch');
      const sent = await submitEmail(stack.auth.url, form, email).expect(200);
      const approvalNumber = /<strong id="approval-number">(\d\d)<\/strong>/.exec(sent.text)![1];
      const cookie = askedCookies(form, sent);
      const attempt = { ...base(web, 'http://localhost:4000/callback'), login_attempt_id: hiddenFields(sent.text).login_attempt_id };
      const follow = (path: 'watch' | 'status') =>
        request(stack.auth.url).get(`/api/v1/authorize/${path}`).query(attempt).set('Cookie', cookie);

      const token = tokenIn(await smtp.next(email));
      await request(stack.auth.url).post('/api/v1/login_link/approve').type('form').send({ token, number: approvalNumber }).expect(200);
      // Watching twice collects nothing: the approval is still there for status.
      for (const _ of [1, 2]) expect((await follow('watch').expect(200)).body).toEqual({ status: 'approved' });
      const collected = await follow('status').expect(303);
      const callback = new URL(collected.headers.location);
      expect(callback.searchParams.get('state')).toBe(attempt.state);
      expect(callback.searchParams.get('code')).toBeTruthy();
      expect((await follow('watch').expect(200)).body).toEqual({ status: 'completed' });
      // The attempt id and the other cookies without this browser's attempt cookie follow nothing.
      await request(stack.auth.url).get('/api/v1/authorize/watch').query(attempt).set('Cookie', form.cookie).expect(404);
    });

    it('shows the approval number on "check your inbox"; only the browser that asked may type a code or follow the attempt', async () => {
      const form = await openAuthorize(stack.auth.url, base(web, 'http://localhost:4000/callback'));
      const email = uniqueEmail('owner');
      const sent = await submitEmail(stack.auth.url, form, email).expect(200);
      const approvalNumber = /<strong id="approval-number">(\d\d)<\/strong>/.exec(sent.text)?.[1];
      expect(approvalNumber).toMatch(/^[1-9]\d$/);
      const attemptCookie = String(sent.headers['set-cookie']?.[0] ?? '').split(';')[0];
      expect(attemptCookie).toMatch(/^sesame_attempt=/);
      const fields = hiddenFields(sent.text);
      const rightCode = codeIn(await smtp.next(email));
      const wrongCode = rightCode.replace(/\d/g, (digit) => String((Number(digit) + 1) % 10));
      const postCode = (cookie: string, code: string) =>
        request(stack.auth.url)
          .post('/api/v1/authorize/code')
          .set('Cookie', cookie)
          .type('form')
          .send({ ...fields, code });

      // Someone who knows the attempt's id (and has a CSRF pair of their own) cannot burn its tries.
      const stranger = await openAuthorize(stack.auth.url, base(web, 'http://localhost:4000/callback'));
      const strangerSent = await submitEmail(stack.auth.url, stranger, uniqueEmail('stranger')).expect(200);
      const strangerAttempt = String(strangerSent.headers['set-cookie']?.[0] ?? '').split(';')[0];
      const strangerFields = { ...fields, csrf: hiddenFields(strangerSent.text).csrf };
      for (const cookie of [stranger.cookie, `${stranger.cookie}; ${strangerAttempt}`]) {
        await request(stack.auth.url)
          .post('/api/v1/authorize/code')
          .set('Cookie', cookie)
          .type('form')
          .send({ ...strangerFields, code: wrongCode })
          .expect(404);
      }
      for (const path of ['/api/v1/authorize/status', '/api/v1/authorize/watch']) {
        await request(stack.auth.url)
          .get(path)
          .query({ ...base(web, 'http://localhost:4000/callback'), login_attempt_id: fields.login_attempt_id })
          .set('Cookie', `${stranger.cookie}; ${strangerAttempt}`)
          .expect(404);
      }
      const [counted] = await query<{ code_failures: number }>('SELECT code_failures FROM login_attempt WHERE id = $1', [
        fields.login_attempt_id,
      ]);
      expect(counted.code_failures).toBe(0);
      // Nor through direct authentication's status endpoint, with the application's own credentials.
      await request(stack.auth.url)
        .get(`/api/v1/login_attempt/${fields.login_attempt_id}`)
        .set('Authorization', basicAuth(web))
        .expect(404);

      // The browser that asked: a wrong code shows the page again, with the same approval number; the right one signs in.
      const again = await postCode(`${form.cookie}; ${attemptCookie}`, wrongCode).expect(400);
      expect(again.text).toContain(`<strong id="approval-number">${approvalNumber}</strong>`);
      const signedIn = await postCode(`${form.cookie}; ${attemptCookie}`, rightCode).expect(303);
      expect(new URL(signedIn.headers.location).searchParams.get('code')).toEqual(expect.any(String));
    });

    it('shows the form again with an error for an invalid address (400), and sends nothing', async () => {
      const form = await openAuthorize(stack.auth.url, desktopQuery(5003));
      const again = await submitEmail(stack.auth.url, form, 'not an address').expect(400);
      expect(again.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(again.text).toContain('Enter a valid e-mail address.');
      expect(again.text).toContain('aria-invalid="true"');
      expect(again.text).toContain('value="not an address"');
      // The re-shown form works with the same cookie.
      const email = uniqueEmail('retry');
      await submitEmail(stack.auth.url, { ...form, fields: hiddenFields(again.text) }, email).expect(200);
      await smtp.next(email);
    });

    it('refuses a post without the CSRF cookie, with another session’s cookie, or with a forged value (403)', async () => {
      const form = await openAuthorize(stack.auth.url, desktopQuery(5004));
      const other = await openAuthorize(stack.auth.url, desktopQuery(5004));
      await submitEmail(stack.auth.url, { ...form, cookie: '' }, uniqueEmail()).expect(403);
      await submitEmail(stack.auth.url, { ...form, cookie: other.cookie }, uniqueEmail()).expect(403);
      await submitEmail(stack.auth.url, { ...form, fields: { ...form.fields, csrf: 'forged' } }, uniqueEmail()).expect(403);
      const { csrf: _csrf, ...withoutCsrf } = form.fields;
      await submitEmail(stack.auth.url, { ...form, fields: withoutCsrf }, uniqueEmail()).expect(403);
    });

    it('checks the posted parameters again: a redirect_uri swapped in the form is refused with the error page', async () => {
      const form = await openAuthorize(stack.auth.url, desktopQuery(5005));
      const response = await submitEmail(
        stack.auth.url,
        { ...form, fields: { ...form.fields, redirect_uri: 'http://localhost:5005/callback' } },
        uniqueEmail(),
      );
      expectErrorPage(response, /This sign-in request cannot continue/);
    });

    it('before allowedDate the form comes back (429) with the time, and nothing is sent', async () => {
      const email = uniqueEmail('early');
      const form = await openAuthorize(stack.auth.url, desktopQuery(5006));
      await submitEmail(stack.auth.url, form, email).expect(200);
      const again = await submitEmail(stack.auth.url, form, email).expect(429);
      expect(again.text).toMatch(/the next link for this address can be sent at \d\d:\d\d:\d\d \(UTC\)/);
      await smtp.next(email);
      expect(smtp.pending(email)).toEqual([]);
    });

    it('a blocked user is answered like anyone else, and gets no e-mail', async () => {
      const blocked = uniqueEmail('blocked');
      const created = await request(stack.management.url)
        .post(`/api/v2/organization/${desktop.organizationId}/user`)
        .set('Authorization', `Bearer ${desktop.apiKey}`)
        .send({ email: blocked })
        .expect(201);
      await request(stack.management.url)
        .post(`/api/v2/organization/${desktop.organizationId}/user/${created.body.id}`)
        .set('Authorization', `Bearer ${desktop.apiKey}`)
        .send({ blocked: true })
        .expect(200);
      const form = await openAuthorize(stack.auth.url, desktopQuery(5007));
      const answer = await submitEmail(stack.auth.url, form, blocked).expect(200);
      expect(answer.text).toContain('Check your inbox');
      expect(sentenceIn(answer.text).split(' ').length).toBeGreaterThanOrEqual(3);
      // The worker handles mail in order: once a later address's mail has arrived, nothing is pending for the blocked one.
      const sentinel = uniqueEmail('sentinel');
      await submitEmail(stack.auth.url, await openAuthorize(stack.auth.url, desktopQuery(5008)), sentinel).expect(200);
      await smtp.next(sentinel);
      expect(smtp.pending(blocked)).toEqual([]);
    });

    it('a web app signs in through the page with PKCE and exchanges the code with its secret and the verifier, never without it', async () => {
      const pair = pkcePair();
      const callback = await hostedLogin(stack, smtp, base(web, 'http://localhost:4000/callback', { code_challenge: pair.challenge }));
      expect(callback.searchParams.get('state')).toBe('st-1');
      const code = callback.searchParams.get('code')!;
      await verify(stack.auth.url, { code, redirect_uri: 'http://localhost:4000/callback' }, basicAuth(web)).expect(400);
      const again = await hostedLogin(stack, smtp, base(web, 'http://localhost:4000/callback', { code_challenge: pair.challenge }));
      await verify(
        stack.auth.url,
        { code: again.searchParams.get('code')!, redirect_uri: 'http://localhost:4000/callback', code_verifier: pair.verifier },
        basicAuth(web),
      ).expect(200);
    });

    it('carries the nonce of the request into the id_token (OpenID Connect Core 3.1.2.1)', async () => {
      const pair = pkcePair();
      const nonce = 'n-0S6_WzA2Mj-hosted';
      const redirectUri = 'http://127.0.0.1:5013/callback';
      const form = await openAuthorize(stack.auth.url, base(desktop, redirectUri, { code_challenge: pair.challenge, nonce }));
      expect(form.fields.nonce).toBe(nonce);
      const email = uniqueEmail('nonce');
      await submitEmail(stack.auth.url, form, email).expect(200);
      const callback = await followLink(stack, smtp, email);
      const tokens = await verify(stack.auth.url, {
        client_id: desktop.clientId,
        code: callback.searchParams.get('code')!,
        redirect_uri: redirectUri,
        code_verifier: pair.verifier,
      }).expect(200);
      expect(decodeJwt(tokens.body.id_token).nonce).toBe(nonce);
    });
  });

  describe('languages: ui_locales (en, de, fr, es), then Accept-Language', () => {
    it.each([
      ['de', 'Bei Hosted Org anmelden', 'Sehen Sie in Ihr Postfach', 'Ihr Anmeldelink für Hosted Org'],
      ['fr', 'Connexion à Hosted Org', 'Consultez votre boîte de réception', 'Votre lien de connexion à Hosted Org'],
      ['es', 'Inicia sesión en Hosted Org', 'Revisa tu bandeja de entrada', 'Tu enlace para iniciar sesión en Hosted Org'],
      ['en', 'Sign in to Hosted Org', 'Check your inbox', null],
    ])('ui_locales=%s: the form, the check-your-inbox page and the e-mail', async (locale, heading, sentHeading, subject) => {
      const form = await openAuthorize(stack.auth.url, base(desktop, 'http://127.0.0.1:5010/callback', { ui_locales: locale }));
      expect(form.response.text).toContain(`<html lang="${locale}">`);
      expect(form.response.text).toContain(heading);
      expect(form.fields.ui_locales).toBe(locale);
      const email = uniqueEmail(`lang-${locale}`);
      const sent = await submitEmail(stack.auth.url, form, email).expect(200);
      expect(sent.text).toContain(sentHeading);
      const mail = await smtp.next(email);
      if (subject) expect(mail.subject).toBe(subject);
    });

    it('takes the first supported language of ui_locales', async () => {
      const form = await openAuthorize(stack.auth.url, base(desktop, 'http://127.0.0.1:5011/callback', { ui_locales: 'it fr-CA de' }));
      expect(form.response.text).toContain('<html lang="fr">');
    });

    it('falls back to Accept-Language, then to English', async () => {
      const german = await openAuthorize(stack.auth.url, base(desktop, 'http://127.0.0.1:5012/callback'), {
        'Accept-Language': 'de-CH,de;q=0.9,en;q=0.5',
      });
      expect(german.response.text).toContain('<html lang="de">');
      const english = await openAuthorize(stack.auth.url, base(desktop, 'http://127.0.0.1:5012/callback'), {
        'Accept-Language': 'ja,zh;q=0.8',
      });
      expect(english.response.text).toContain('<html lang="en">');
      const invalid = await openAuthorize(stack.auth.url, base(desktop, 'http://127.0.0.1:5012/callback', { ui_locales: 'xx' }));
      expect(invalid.response.text).toContain('Sign in to Hosted Org');
    });
  });

  it.each(['free', 'basic', 'pro', 'enterprise'])('works on the %s plan, for a web and a native app', async (plan) => {
    const tenant = await createTenant(stack.management.url, plan);
    const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['https://app.example.com'] });
    const planWeb = await createApplication(stack.management.url, organization, { type: 'web' });
    const planAndroid = await createApplication(stack.management.url, organization, {
      type: 'android',
      callbackUrls: ['com.example.plan:/cb'],
    });

    const pair = pkcePair();
    const webCallback = await hostedLogin(stack, smtp, {
      response_type: 'code',
      client_id: planWeb.clientId,
      redirect_uri: 'https://app.example.com/cb',
      state: plan,
      code_challenge: pair.challenge,
      code_challenge_method: 'S256',
    });
    await verify(
      stack.auth.url,
      { code: webCallback.searchParams.get('code')!, redirect_uri: 'https://app.example.com/cb', code_verifier: pair.verifier },
      basicAuth(planWeb),
    ).expect(200);

    const nativeCallback = await hostedLogin(stack, smtp, {
      response_type: 'code',
      client_id: planAndroid.clientId,
      redirect_uri: 'com.example.plan:/cb',
      state: plan,
      code_challenge: pair.challenge,
      code_challenge_method: 'S256',
    });
    expect(nativeCallback.href).toMatch(/^com\.example\.plan:\/cb\?code=[A-Za-z0-9_-]{43}&state=/);
    await verify(stack.auth.url, {
      client_id: planAndroid.clientId,
      code: nativeCallback.searchParams.get('code')!,
      redirect_uri: 'com.example.plan:/cb',
      code_verifier: pair.verifier,
    }).expect(200);
  });
});
