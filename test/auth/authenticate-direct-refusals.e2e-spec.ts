import request from 'supertest';
import { startStack, Stack } from '../support/apps';
import { attemptsOf, authenticateDirect, expectOAuthError, query, V1 } from '../support/direct-auth';
import { basicAuth, uniqueEmail } from '../support/login';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { SmtpSink } from '../support/smtp-sink';

/**
 * Everything POST /v1/authenticate_direct refuses: client authentication, each validation
 * error, plans, application types and redirect_uri values that are not allowed. A refusal
 * records nothing, so no link exists that could ever redirect anywhere.
 */
describe('POST /v1/authenticate_direct refusals', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let web: ApplicationFixture;
  let strict: ApplicationFixture;
  let other: ApplicationFixture;

  const goodBody = (overrides: Record<string, unknown> = {}) => ({
    email: uniqueEmail('refusal'),
    redirect_uri: 'https://app.example.com/auth/callback',
    state: 'state-1',
    ...overrides,
  });

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, {
      name: 'Refusals Inc',
      whitelistDomains: ['https://app.example.com', 'https://*.apps.example.org', 'http://localhost:4000'],
    });
    web = await createApplication(stack.management.url, organization, { type: 'web' });
    strict = await createApplication(stack.management.url, organization, {
      type: 'web',
      callbackUrls: ['https://app.example.com/auth/callback', 'https://app.example.com/cb?tenant=a'],
    });
    other = await createApplication(stack.management.url, organization, { type: 'web' });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  describe('client authentication (Basic only)', () => {
    const CHALLENGE = 'Basic realm="sesame"';

    it.each<[string, (app: ApplicationFixture) => string | null]>([
      ['no Authorization header', () => null],
      ['a wrong secret', (app) => basicAuth(app, 'wrong-secret')],
      ['an empty secret', (app) => basicAuth(app, '')],
      ['another application’s secret', () => basicAuth({ clientId: web.clientId, clientSecret: other.clientSecret })],
      ['an unknown client_id', (app) => basicAuth({ clientId: 'unknown-client-id', clientSecret: app.clientSecret })],
      ['an empty client_id', (app) => basicAuth({ clientId: '', clientSecret: app.clientSecret })],
      ['an over-long client_id', (app) => basicAuth({ clientId: 'x'.repeat(200), clientSecret: app.clientSecret })],
      ['Basic without credentials', () => 'Basic'],
      ['Basic with a blank', () => 'Basic    '],
      ['Basic that is not base64', () => 'Basic !!!not-base64!!!'],
      ['Basic without a colon', (app) => `Basic ${Buffer.from(app.clientId).toString('base64')}`],
      ['Basic with broken percent-encoding', (app) => `Basic ${Buffer.from(`${app.clientId}:%E0%A4%A`).toString('base64')}`],
      ['a Bearer token', (app) => `Bearer ${app.clientSecret}`],
      ['the secret as a Bearer token', (app) => `Bearer ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`],
    ])('%s → 401 invalid_client with WWW-Authenticate: Basic', async (_, header) => {
      const test = request(stack.auth.url).post(`${V1}/authenticate_direct`).send(goodBody());
      const authorization = header(web);
      if (authorization !== null) test.set('Authorization', authorization);
      const response = await test;
      expectOAuthError(response, 401, 'invalid_client');
      expect(response.headers['www-authenticate']).toBe(CHALLENGE);
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('client_id and client_secret in the body are not accepted on this endpoint', async () => {
      const response = await request(stack.auth.url)
        .post(`${V1}/authenticate_direct`)
        .send({ ...goodBody(), client_id: web.clientId, client_secret: web.clientSecret });
      expectOAuthError(response, 401, 'invalid_client');
      expect(response.headers['www-authenticate']).toBe(CHALLENGE);
    });

    it('form-urlencoded Basic credentials (RFC 6749 §2.3.1) are decoded', async () => {
      const encoded = (value: string) => encodeURIComponent(value).replace(/-/g, '%2D');
      const header = `Basic ${Buffer.from(`${encoded(web.clientId)}:${encoded(web.clientSecret!)}`).toString('base64')}`;
      const response = await request(stack.auth.url).post(`${V1}/authenticate_direct`).set('Authorization', header).send(goodBody());
      expect(response.status).toBe(200);
    });

    it('GET /v1/login_attempt/{id} also needs the client', async () => {
      const started = await authenticateDirect(stack.auth.url, web, goodBody()).expect(200);
      const response = await request(stack.auth.url).get(`${V1}/login_attempt/${started.body.loginAttemptId}`);
      expectOAuthError(response, 401, 'invalid_client');
      expect(response.headers['www-authenticate']).toBe(CHALLENGE);
      const wrong = await request(stack.auth.url)
        .get(`${V1}/login_attempt/${started.body.loginAttemptId}`)
        .set('Authorization', basicAuth(web, 'nope'));
      expectOAuthError(wrong, 401, 'invalid_client');
    });

    it('nothing was recorded for a refused client', async () => {
      const rows = await query<{ count: number }>(
        `SELECT count(*)::int AS count FROM login_attempt WHERE application_id = $1 AND email LIKE 'refusal-%'`,
        [web.applicationId],
      );
      // Only the two accepted requests of this block (form-encoded credentials, and the status check).
      expect(rows[0].count).toBe(2);
    });
  });

  describe('validation (400 invalid_request, nothing recorded)', () => {
    let validation: ApplicationFixture;

    beforeAll(async () => {
      const tenant = await createTenant(stack.management.url, 'pro');
      const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['https://app.example.com'] });
      validation = await createApplication(stack.management.url, organization, { type: 'web' });
    });

    afterAll(async () => {
      expect(await attemptsOf(validation.applicationId)).toEqual([]);
    });

    const without = (field: string) => (body: Record<string, unknown>) => {
      const copy = { ...body };
      delete copy[field];
      return copy;
    };
    const withValue = (field: string, value: unknown) => (body: Record<string, unknown>) => ({ ...body, [field]: value });

    it.each<[string, (body: Record<string, unknown>) => unknown, RegExp?]>([
      ['email missing', without('email'), /email/],
      ['email not a string', withValue('email', 42), /email/],
      ['email an array', withValue('email', ['a@example.com']), /email/],
      ['email empty', withValue('email', ''), /email must be a valid e-mail address/],
      ['email without @', withValue('email', 'not-an-email'), /email must be a valid e-mail address/],
      ['email without a dot in the domain', withValue('email', 'a@localhost'), /email must be a valid e-mail address/],
      ['email with two @', withValue('email', 'a@b@example.com'), /email must be a valid e-mail address/],
      ['email with a quoted local part', withValue('email', '"a b"@example.com'), /email must be a valid e-mail address/],
      ['email with consecutive dots', withValue('email', 'a..b@example.com'), /email must be a valid e-mail address/],
      ['email with a display name', withValue('email', 'Ada <ada@example.com>'), /email must be a valid e-mail address/],
      ['email longer than 320 characters', withValue('email', `${'a'.repeat(310)}@example.com`), /email/],
      [
        'email longer than 254 characters',
        withValue('email', `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(60)}.com`),
        /email must be a valid e-mail address/,
      ],
      ['redirect_uri missing', without('redirect_uri'), /redirect_uri/],
      ['redirect_uri not a string', withValue('redirect_uri', { href: 'https://app.example.com/cb' }), /redirect_uri/],
      ['redirect_uri empty', withValue('redirect_uri', ''), /redirect_uri/],
      [
        'redirect_uri longer than 2000 characters',
        withValue('redirect_uri', `https://app.example.com/${'a'.repeat(2000)}`),
        /redirect_uri/,
      ],
      ['state missing', without('state'), /state/],
      ['state empty', withValue('state', ''), /state/],
      ['state not a string', withValue('state', 12345), /state/],
      ['state an object', withValue('state', { a: 1 }), /state/],
      ['state longer than 1024 characters', withValue('state', 's'.repeat(1025)), /state/],
      ['translations a string', withValue('translations', 'Hallo'), /translations/],
      ['translations an array', withValue('translations', ['Hallo']), /translations/],
      ['translations with an unknown key', withValue('translations', { footer: 'x' }), /footer/],
      ['translations with a template key', withValue('translations', { link: 'https://evil.example/' }), /link/],
      ['translations with a non-string value', withValue('translations', { subject: 5 }), /subject/],
      ['translations with a nested object', withValue('translations', { subject: { a: 'b' } }), /subject/],
      ['translations longer than 300 characters', withValue('translations', { intro: 'x'.repeat(301) }), /intro/],
      ['translations on several lines', withValue('translations', { greeting: 'Hi\nthere' }), /greeting/],
      ['translations with a control character', withValue('translations', { button: 'Go\u0000' }), /button/],
      ['code_challenge too short', withValue('code_challenge', 'abc'), /code_challenge/],
      [
        'code_challenge with characters outside base64url',
        (body) => ({ ...body, code_challenge: `${'a'.repeat(42)}+`, code_challenge_method: 'S256' }),
        /code_challenge/,
      ],
      ['code_challenge not a string', (body) => ({ ...body, code_challenge: 42, code_challenge_method: 'S256' }), /code_challenge/],
      [
        'code_challenge without a method',
        withValue('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
        /code_challenge_method/,
      ],
      [
        'code_challenge_method plain',
        (body) => ({ ...body, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'plain' }),
        /code_challenge_method/,
      ],
      [
        'code_challenge_method in lower case',
        (body) => ({ ...body, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 's256' }),
        /code_challenge_method/,
      ],
      ['code_challenge_method without a challenge', withValue('code_challenge_method', 'S256'), /code_challenge_method/],
      ['an unknown field', withValue('scope', 'openid'), /scope/],
      ['client_id in the body besides Basic', withValue('client_id', 'someone-else'), /./],
      ['a JSON array instead of an object', () => [], undefined],
      ['a JSON string instead of an object', () => 'hello', undefined],
    ])('%s', async (_, change, description) => {
      const body = change(goodBody());
      const test = request(stack.auth.url).post(`${V1}/authenticate_direct`).set('Authorization', basicAuth(validation));
      const response =
        typeof body === 'string'
          ? await test.set('Content-Type', 'application/json').send(JSON.stringify(body))
          : await test.send(body as object);
      expectOAuthError(response, 400, 'invalid_request', description);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers.location).toBeUndefined();
    });

    it('malformed JSON', async () => {
      const response = await request(stack.auth.url)
        .post(`${V1}/authenticate_direct`)
        .set('Authorization', basicAuth(validation))
        .set('Content-Type', 'application/json')
        .send('{"email": "a@example.com",');
      expectOAuthError(response, 400, 'invalid_request');
    });

    it('the limits themselves are accepted: 1024-character state, 300-character translations, an S256 challenge', async () => {
      const response = await authenticateDirect(stack.auth.url, other, {
        ...goodBody(),
        state: 's'.repeat(1024),
        translations: { subject: 'S'.repeat(300), greeting: 'Grüß Gott,', intro: '', button: 'Anmelden', expiry: 'x', ignore: 'y' },
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      });
      expect(response.status).toBe(200);
      const [row] = await query<{ state: string; code_challenge: string; translations: unknown }>(
        'SELECT state, code_challenge, translations FROM login_attempt WHERE id = $1',
        [response.body.loginAttemptId],
      );
      expect(row).toEqual({
        state: 's'.repeat(1024),
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        translations: { subject: 'S'.repeat(300), greeting: 'Grüß Gott,', intro: '', button: 'Anmelden', expiry: 'x', ignore: 'y' },
      });
    });

    it('the address is stored normalised: trimmed, lower-cased, IDN domain in punycode', async () => {
      const response = await authenticateDirect(stack.auth.url, other, goodBody({ email: '  Grace.Hopper@Bücher.Example  ' })).expect(200);
      const [row] = await query<{ email: string }>('SELECT email FROM login_attempt WHERE id = $1', [response.body.loginAttemptId]);
      expect(row.email).toBe('grace.hopper@xn--bcher-kva.example');
    });
  });

  describe('plans and application types', () => {
    it.each(['free', 'basic'])('a %s tenant gets 403 plan_not_supported and nothing is recorded', async (plan) => {
      const tenant = await createTenant(stack.management.url, plan);
      const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['https://app.example.com'] });
      const app = await createApplication(stack.management.url, organization, { type: 'web' });
      const response = await authenticateDirect(stack.auth.url, app, goodBody());
      expectOAuthError(response, 403, 'plan_not_supported');
      expect(await attemptsOf(app.applicationId)).toEqual([]);
      const throttles = await query('SELECT * FROM email_throttle WHERE organization_id = $1', [organization.organizationId]);
      expect(throttles).toEqual([]);
    });

    it.each(['pro', 'enterprise'])('a %s tenant may use it', async (plan) => {
      const tenant = await createTenant(stack.management.url, plan);
      const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['https://app.example.com'] });
      const app = await createApplication(stack.management.url, organization, { type: 'web' });
      const response = await authenticateDirect(stack.auth.url, app, goodBody()).expect(200);
      expect(Object.keys(response.body).sort()).toEqual(['allowedDate', 'approvalNumber', 'loginAttemptId', 'sentence', 'token']);
    });

    it.each([
      ['android', ['com.example.app:/callback']],
      ['ios', ['com.example.app:/callback']],
      ['desktop', ['http://127.0.0.1/callback']],
    ])(
      'a %s application (no client secret) presenting one is refused with invalid_client (RFC 6749 §5.2) and records nothing',
      async (type, callbackUrls) => {
        const tenant = await createTenant(stack.management.url, 'enterprise');
        const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['https://app.example.com'] });
        const app = await createApplication(stack.management.url, organization, { type, callbackUrls });
        expect(app.clientSecret).toBeNull();
        for (const secret of ['', 'anything']) {
          const response = await request(stack.auth.url)
            .post(`${V1}/authenticate_direct`)
            .set('Authorization', basicAuth(app, secret))
            .send(goodBody({ redirect_uri: callbackUrls[0] }));
          expectOAuthError(response, 401, 'invalid_client');
        }
        const bodyOnly = await request(stack.auth.url)
          .post(`${V1}/authenticate_direct`)
          .send({ ...goodBody({ redirect_uri: callbackUrls[0] }), client_id: app.clientId });
        expectOAuthError(bodyOnly, 401, 'invalid_client');
        expect(await attemptsOf(app.applicationId)).toEqual([]);
      },
    );
  });

  describe('redirect_uri', () => {
    const REJECTED_FOR_ANY_WEB_APP = [
      // lookalikes of the whitelisted https://app.example.com
      'https://app.example.com.evil.com/auth/callback',
      'https://evilapp.example.com/auth/callback',
      'https://app-example.com/auth/callback',
      'https://app.example.co/auth/callback',
      'https://app.example.comm/auth/callback',
      'https://аpp.example.com/auth/callback', // Cyrillic "а"
      'https://app.example.com./auth/callback',
      'https://app.example.com%2eevil.com/auth/callback',
      'HTTPS://APP.EXAMPLE.COM.EVIL.COM/auth/callback',
      'https://evil.com/app.example.com/auth/callback',
      'https://evil.com/?https://app.example.com/auth/callback',
      'https://evil.com?@app.example.com/auth/callback',
      // credentials, fragments, backslashes and whitespace that move the host
      'https://app.example.com@evil.com/auth/callback',
      'https://app.example.com:443@evil.com/auth/callback',
      'https://evil.com@app.example.com/auth/callback',
      'https://evil.com#@app.example.com/auth/callback',
      'https://evil.com\\@app.example.com/auth/callback',
      'https://evil.com\\.app.example.com/auth/callback',
      'https://app.example.com\t.evil.com/auth/callback',
      'https://app.example.com/auth/callback#',
      'https://app.example.com/auth/callback#frag',
      ' https://app.example.com/auth/callback',
      'https://app.example.com/auth/callback\n',
      'https://app.example.com／evil.com/auth/callback', // full-width solidus
      // scheme and port of an allowed host
      'http://app.example.com/auth/callback',
      'https://app.example.com:8443/auth/callback',
      'wss://app.example.com/auth/callback',
      'ftp://app.example.com/auth/callback',
      'blob:https://app.example.com/6f1c2f8e',
      'javascript:alert(1)//app.example.com/auth/callback',
      'data:text/html,https://app.example.com/auth/callback',
      // not absolute
      '//app.example.com/auth/callback',
      '/auth/callback',
      'app.example.com/auth/callback',
      // the wildcard entry https://*.apps.example.org: one label deep, never the base
      'https://apps.example.org/cb',
      'https://a.b.apps.example.org/cb',
      'https://evilapps.example.org/cb',
      'https://a.apps.example.org.evil.com/cb',
      'https://*.apps.example.org/cb',
      'http://a.apps.example.org/cb',
      // the loopback entry http://localhost:4000
      'http://localhost:4001/cb',
      'http://localhost/cb',
      'https://localhost:4000/cb',
      'http://127.0.0.1:4000/cb',
      'http://[::1]:4000/cb',
      'http://localhost.evil.com:4000/cb',
      'http://localhost:4000@evil.com/cb',
    ];

    it.each(REJECTED_FOR_ANY_WEB_APP)('%j is refused for an application without callback URLs', async (redirectUri) => {
      const response = await authenticateDirect(stack.auth.url, web, goodBody({ redirect_uri: redirectUri }));
      expectOAuthError(response, 400, 'invalid_request', /redirect_uri/);
      expect(response.headers.location).toBeUndefined();
    });

    it.each(REJECTED_FOR_ANY_WEB_APP)('%j is refused for an application with callback URLs', async (redirectUri) => {
      const response = await authenticateDirect(stack.auth.url, strict, goodBody({ redirect_uri: redirectUri }));
      expectOAuthError(response, 400, 'invalid_request', /redirect_uri/);
    });

    it.each([
      'https://app.example.com/auth/callback/',
      'https://app.example.com/auth/CALLBACK',
      'https://app.example.com/auth/callback?x=1',
      'https://app.example.com/auth',
      'https://app.example.com/cb',
      'https://app.example.com/cb?tenant=b',
      'https://app.example.com/cb?tenant=a&x=1',
      'https://a.apps.example.org/auth/callback', // whitelisted origin, but not registered
      'http://localhost:4000/auth/callback',
    ])('with registered callback URLs, the whitelisted %j that is not registered is refused', async (redirectUri) => {
      const response = await authenticateDirect(stack.auth.url, strict, goodBody({ redirect_uri: redirectUri }));
      expectOAuthError(response, 400, 'invalid_request', /redirect_uri/);
    });

    it.each(['https://app.example.com/auth/callback', 'HTTPS://APP.Example.com:443/auth/callback', 'https://app.example.com/cb?tenant=a'])(
      'with registered callback URLs, %j (equal after WHATWG serialisation) is accepted',
      async (redirectUri) => {
        await authenticateDirect(stack.auth.url, strict, goodBody({ redirect_uri: redirectUri })).expect(200);
      },
    );

    it.each([
      'https://app.example.com/auth/callback',
      'https://app.example.com/any/path?with=query',
      'https://APP.example.com:443/cb',
      'https://a.apps.example.org/cb',
      'https://xn--a-0ga.apps.example.org/cb',
      'http://localhost:4000/cb',
    ])('without callback URLs, %j on a whitelisted origin is accepted and stored as given', async (redirectUri) => {
      const response = await authenticateDirect(stack.auth.url, web, goodBody({ redirect_uri: redirectUri })).expect(200);
      const [row] = await query<{ redirect_uri: string }>('SELECT redirect_uri FROM login_attempt WHERE id = $1', [
        response.body.loginAttemptId,
      ]);
      expect(row.redirect_uri).toBe(redirectUri);
    });

    it('no refused redirect_uri was ever recorded, so no link can lead there', async () => {
      const rows = await query<{ redirect_uri: string }>('SELECT DISTINCT redirect_uri FROM login_attempt WHERE application_id = ANY($1)', [
        [web.applicationId, strict.applicationId],
      ]);
      const recorded = rows.map((row) => row.redirect_uri);
      for (const refused of REJECTED_FOR_ANY_WEB_APP) expect(recorded).not.toContain(refused);
      for (const uri of recorded) {
        const origin = new URL(uri).origin;
        expect([
          'https://app.example.com',
          'https://a.apps.example.org',
          'https://xn--a-0ga.apps.example.org',
          'http://localhost:4000',
        ]).toContain(origin);
      }
    });
  });
});
