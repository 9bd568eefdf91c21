import { randomUUID } from 'node:crypto';
import { RunningApp } from '../support/apps';
import { createApplication, createOrganization, createTenant, OrganizationFixture, TenantFixture } from '../support/fixtures';
import {
  call,
  expectProblem,
  expectSameAsNonexistent,
  startUnthrottledManagementApi,
  V2,
  validationProblem,
  walkPages,
} from '../support/management';

const SUMMARY_FIELDS = [
  'callbackUrls',
  'clientId',
  'createdAt',
  'id',
  'idTokenEncryptedResponseAlg',
  'idTokenEncryptedResponseEnc',
  'name',
  'organizationId',
  'previousSecretExpiresAt',
  'type',
  'updatedAt',
];
const APPLICATION_FIELDS = [...SUMMARY_FIELDS, 'clientSecret'].sort();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CLIENT_ID = /^[A-Za-z0-9_-]{24}$/;
const CLIENT_SECRET = /^cs_[A-Za-z0-9_-]{43}$/;

/** A 400 validation_failed problem naming `field`. */
function expectRefused(response: { status: number; body: { code?: string; errors?: { field: string }[] } }, field: string): void {
  expect({ status: response.status, code: response.body.code, fields: response.body.errors?.map((error) => error.field) }).toEqual({
    status: 400,
    code: 'validation_failed',
    fields: [field],
  });
}
const NATIVE = ['android', 'ios', 'desktop'] as const;

const WEB_HTTP = 'must use https (http is allowed only for loopback hosts)';
const DESKTOP_HTTP = 'must use https or http on a loopback IP (127.0.0.1 or [::1])';
const MOBILE_HTTP = 'must use https or a reverse-domain custom scheme such as com.example.app:/callback';
const CUSTOM_SCHEME = 'a custom scheme must be a reverse domain name such as com.example.app';

describe('applications', () => {
  let api: RunningApp;
  let tenant: TenantFixture;
  let organization: OrganizationFixture;
  let sibling: OrganizationFixture;

  beforeAll(async () => {
    api = await startUnthrottledManagementApi();
    tenant = await createTenant(api.url);
    organization = await createOrganization(api.url, tenant);
    sibling = await createOrganization(api.url, tenant);
  });
  afterAll(() => api.close());

  const appsPath = (org = organization) => `/organization/${org.organizationId}/application`;
  const create = (body: unknown, org = organization) => call(api.url, 'post', appsPath(org), tenant.apiKey, body);
  /** A read that asks for the secret (the plain read answers none). */
  const read = (id: string, org = organization) => call(api.url, 'get', `${appsPath(org)}/${id}?include=secret`, tenant.apiKey);
  const readPlain = (id: string) => call(api.url, 'get', `${appsPath()}/${id}`, tenant.apiKey);
  const update = (id: string, body: unknown) => call(api.url, 'post', `${appsPath()}/${id}`, tenant.apiKey, body);
  const rotate = (id: string, org = organization) => call(api.url, 'post', `${appsPath(org)}/${id}/rotate_secret`, tenant.apiKey);
  const allApps = async (org = organization) => (await walkPages(api.url, appsPath(org), tenant.apiKey, 100)).items;

  describe('create', () => {
    it('a web app gets a client id and a client secret, answered again only by a read that asks for it', async () => {
      const response = await create({
        name: '  Web shop ',
        type: 'web',
        callbackUrls: ['https://Shop.Example.com:443/auth/callback?x=1'],
      }).expect(201);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body).sort()).toEqual(APPLICATION_FIELDS);
      expect(response.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        organizationId: organization.organizationId,
        name: 'Web shop',
        type: 'web',
        clientId: expect.stringMatching(CLIENT_ID),
        clientSecret: expect.stringMatching(CLIENT_SECRET),
        callbackUrls: ['https://shop.example.com/auth/callback?x=1'],
        idTokenEncryptedResponseAlg: 'dir',
        idTokenEncryptedResponseEnc: 'A256GCM',
        previousSecretExpiresAt: null,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      expect((await read(response.body.id).expect(200)).body).toEqual(response.body);
      expect((await readPlain(response.body.id).expect(200)).body).toEqual({ ...response.body, clientSecret: null });
    });

    it('a web app may choose a signed-only id_token (idTokenEncryptedResponseAlg null) and switch back; native apps cannot encrypt', async () => {
      const signed = (await create({ name: 'Signed', type: 'web', idTokenEncryptedResponseAlg: null }).expect(201)).body;
      expect([signed.idTokenEncryptedResponseAlg, signed.idTokenEncryptedResponseEnc]).toEqual([null, null]);
      const encrypted = (await update(signed.id, { idTokenEncryptedResponseAlg: 'dir' }).expect(200)).body;
      expect([encrypted.idTokenEncryptedResponseAlg, encrypted.idTokenEncryptedResponseEnc]).toEqual(['dir', 'A256GCM']);
      for (const value of ['none', 'RSA-OAEP', 'A256KW', 42, true]) {
        expectRefused(await create({ name: 'Bad', type: 'web', idTokenEncryptedResponseAlg: value }), 'idTokenEncryptedResponseAlg');
      }
      expectRefused(await create({ name: 'Native', type: 'desktop', idTokenEncryptedResponseAlg: 'dir' }), 'idTokenEncryptedResponseAlg');
      const native = (await create({ name: 'Native', type: 'ios' }).expect(201)).body;
      expect(native.idTokenEncryptedResponseAlg).toBeNull();
      expectRefused(await update(native.id, { idTokenEncryptedResponseAlg: 'dir' }), 'idTokenEncryptedResponseAlg');
      expect((await read(native.id).expect(200)).body).toEqual(native);
    });

    it.each(NATIVE)('a %s app gets a client id and clientSecret null', async (type) => {
      const response = await create({ name: `${type} app`, type }).expect(201);
      expect(response.body).toEqual(
        expect.objectContaining({ type, clientId: expect.stringMatching(CLIENT_ID), clientSecret: null, callbackUrls: [] }),
      );
      expect(Object.keys(response.body).sort()).toEqual(APPLICATION_FIELDS);
      expect((await read(response.body.id).expect(200)).body.clientSecret).toBeNull();
    });

    it('client ids and secrets are unique', async () => {
      const apps = await Promise.all(Array.from({ length: 5 }, (_, i) => create({ name: `Unique ${i}`, type: 'web' }).expect(201)));
      expect(new Set(apps.map((app) => app.body.clientId)).size).toBe(5);
      expect(new Set(apps.map((app) => app.body.clientSecret)).size).toBe(5);
    });

    it('drops duplicate callback URLs after normalisation', async () => {
      const response = await create({
        name: 'Dups',
        type: 'web',
        callbackUrls: ['https://a.example.com/cb', 'HTTPS://A.EXAMPLE.COM:443/cb', 'https://a.example.com/other'],
      }).expect(201);
      expect(response.body.callbackUrls).toEqual(['https://a.example.com/cb', 'https://a.example.com/other']);
    });

    describe('callback URLs per application type', () => {
      it.each([
        ['web', 'https://app.example.com/cb', 'https://app.example.com/cb'],
        ['web', 'http://localhost:3000/cb', 'http://localhost:3000/cb'],
        ['web', 'http://127.0.0.1:3000/cb', 'http://127.0.0.1:3000/cb'],
        ['web', 'https://bücher.example/cb', 'https://xn--bcher-kva.example/cb'],
        ['desktop', 'http://127.0.0.1/callback', 'http://127.0.0.1/callback'],
        ['desktop', 'http://[::1]:8080/callback', 'http://[::1]:8080/callback'],
        ['desktop', 'https://app.example.com/cb', 'https://app.example.com/cb'],
        ['android', 'com.example.app:/oauth2redirect', 'com.example.app:/oauth2redirect'],
        ['android', 'https://app.example.com/cb', 'https://app.example.com/cb'],
        ['ios', 'COM.Example.App:/callback', 'com.example.app:/callback'],
      ])('%s accepts %j as %j', async (type, url, normalised) => {
        const response = await create({ name: 'Callbacks', type, callbackUrls: [url] }).expect(201);
        expect(response.body.callbackUrls).toEqual([normalised]);
      });

      it.each([
        ['web', 'http://app.example.com/cb', WEB_HTTP],
        ['web', 'com.example.app:/cb', 'must use https'],
        ['web', 'javascript:alert(1)', 'must use https'],
        ['web', 'https://app.example.com/cb#frag', 'must not contain a fragment'],
        ['web', 'https://user:pw@app.example.com/cb', 'must not contain credentials'],
        ['web', 'https://app.example.com/c b', 'must not contain whitespace or backslashes'],
        ['web', 'https:\\\\evil.com\\cb', 'must not contain whitespace or backslashes'],
        ['web', '/relative/callback', 'must be an absolute URL'],
        ['web', '', 'must be 1 to 2000 characters'],
        ['desktop', 'http://localhost:8080/cb', DESKTOP_HTTP],
        ['desktop', 'com.example.app:/cb', 'must use https or a loopback http URL'],
        ['android', 'http://127.0.0.1/cb', MOBILE_HTTP],
        ['android', 'myapp:/cb', CUSTOM_SCHEME],
        ['android', 'file:///data/cb', CUSTOM_SCHEME],
        ['ios', 'http://localhost/cb', MOBILE_HTTP],
        ['ios', 'data:text/html,hi', CUSTOM_SCHEME],
      ])('%s rejects %j and creates nothing', async (type, url, reason) => {
        const before = await allApps();
        expectProblem(await create({ name: 'Callbacks', type, callbackUrls: ['https://ok.example.com/cb', url] }), {
          ...validationProblem([{ field: 'callbackUrls.1', messages: [`callbackUrls.1 ${reason}`] }]),
          instance: `${V2}${appsPath()}`,
        });
        expect(await allApps()).toEqual(before);
      });
    });

    it.each([
      [
        'a missing type',
        { name: 'x' },
        [{ field: 'type', messages: ['type must be one of the following values: web, android, ios, desktop'] }],
      ],
      [
        'an unknown type',
        { name: 'x', type: 'spa' },
        [{ field: 'type', messages: ['type must be one of the following values: web, android, ios, desktop'] }],
      ],
      [
        'an upper-case type',
        { name: 'x', type: 'WEB' },
        [{ field: 'type', messages: ['type must be one of the following values: web, android, ios, desktop'] }],
      ],
      [
        'a missing name',
        { type: 'web' },
        [
          {
            field: 'name',
            messages: ['name must be a string', 'name should not be empty', 'name must be shorter than or equal to 200 characters'],
          },
        ],
      ],
      [
        'a name of 201 characters',
        { name: 'n'.repeat(201), type: 'web' },
        [{ field: 'name', messages: ['name must be shorter than or equal to 200 characters'] }],
      ],
      [
        'callbackUrls as a string',
        { name: 'x', type: 'web', callbackUrls: 'https://a.example.com/cb' },
        [{ field: 'callbackUrls', messages: ['callbackUrls must contain no more than 20 elements', 'callbackUrls must be an array'] }],
      ],
      [
        'callbackUrls null',
        { name: 'x', type: 'web', callbackUrls: null },
        [
          {
            field: 'callbackUrls',
            messages: [
              'each value in callbackUrls must be a string',
              'callbackUrls must contain no more than 20 elements',
              'callbackUrls must be an array',
            ],
          },
        ],
      ],
      [
        'a number among callbackUrls',
        { name: 'x', type: 'web', callbackUrls: [1] },
        [{ field: 'callbackUrls', messages: ['each value in callbackUrls must be a string'] }],
      ],
      [
        '21 callback URLs',
        { name: 'x', type: 'web', callbackUrls: Array.from({ length: 21 }, (_, i) => `https://a.example.com/${i}`) },
        [{ field: 'callbackUrls', messages: ['callbackUrls must contain no more than 20 elements'] }],
      ],
      [
        'a clientSecret of its own',
        { name: 'x', type: 'web', clientSecret: 'cs_mine' },
        [{ field: 'clientSecret', messages: ['property clientSecret should not exist'] }],
      ],
      [
        'a clientId of its own',
        { name: 'x', type: 'web', clientId: 'mine' },
        [{ field: 'clientId', messages: ['property clientId should not exist'] }],
      ],
    ])('rejects %s and creates nothing', async (_, body, errors) => {
      const before = await allApps();
      expectProblem(await create(body), { ...validationProblem(errors), instance: `${V2}${appsPath()}` });
      expect(await allApps()).toEqual(before);
    });
  });

  describe('update', () => {
    it('changes name and callback URLs; the type, client id and secret stay (the answer has no secret)', async () => {
      const app = (await create({ name: 'Before', type: 'web', callbackUrls: ['https://before.example.com/cb'] }).expect(201)).body;
      const renamed = await update(app.id, { name: 'After' }).expect(200);
      expect(renamed.body).toEqual({ ...app, name: 'After', clientSecret: null, updatedAt: expect.stringMatching(ISO) });
      const moved = await update(app.id, { callbackUrls: ['https://After.example.com/cb', 'http://localhost:5000/cb'] }).expect(200);
      expect(moved.body).toEqual({
        ...app,
        name: 'After',
        clientSecret: null,
        callbackUrls: ['https://after.example.com/cb', 'http://localhost:5000/cb'],
        updatedAt: expect.stringMatching(ISO),
      });
      expect((await read(app.id).expect(200)).body).toEqual({ ...moved.body, clientSecret: app.clientSecret });
    });

    it('validates callback URLs against the app’s own type', async () => {
      const app = (await create({ name: 'Desktop', type: 'desktop' }).expect(201)).body;
      expectProblem(
        await update(app.id, { callbackUrls: ['http://localhost:8080/cb'] }),
        validationProblem([{ field: 'callbackUrls.0', messages: [`callbackUrls.0 ${DESKTOP_HTTP}`] }]),
      );
      expect((await update(app.id, { callbackUrls: ['http://127.0.0.1:8080/cb'] }).expect(200)).body.callbackUrls).toEqual([
        'http://127.0.0.1:8080/cb',
      ]);
    });

    it.each([
      ['a new type', { type: 'android' }, [{ field: 'type', messages: ['property type should not exist'] }]],
      [
        'a valid name with a bad callback URL',
        { name: 'After', callbackUrls: ['http://evil.example.com/cb'] },
        [{ field: 'callbackUrls.0', messages: [`callbackUrls.0 ${WEB_HTTP}`] }],
      ],
      [
        'a valid name with a clientSecret',
        { name: 'After', clientSecret: 'cs_mine' },
        [{ field: 'clientSecret', messages: ['property clientSecret should not exist'] }],
      ],
      [
        'a null name',
        { name: null },
        [
          {
            field: 'name',
            messages: ['name must be a string', 'name should not be empty', 'name must be shorter than or equal to 200 characters'],
          },
        ],
      ],
      [
        'callbackUrls null',
        { callbackUrls: null },
        [
          {
            field: 'callbackUrls',
            messages: [
              'each value in callbackUrls must be a string',
              'callbackUrls must contain no more than 20 elements',
              'callbackUrls must be an array',
            ],
          },
        ],
      ],
    ])('a failed update (%s) changes nothing', async (_, body, errors) => {
      const app = (await create({ name: 'Before', type: 'web', callbackUrls: ['https://before.example.com/cb'] }).expect(201)).body;
      expectProblem(await update(app.id, body), validationProblem(errors));
      expect((await read(app.id).expect(200)).body).toEqual(app);
    });
  });

  describe('rotate_secret', () => {
    it('replaces a web app’s secret; the new one is shown on read, the client id stays; the old one keeps working for a day by default', async () => {
      const app = (await create({ name: 'Rotating', type: 'web' }).expect(201)).body;
      const before = Date.now();
      const rotated = await rotate(app.id).expect(200);
      const after = Date.now();
      expect(rotated.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(rotated.body).toEqual({
        ...app,
        clientSecret: expect.stringMatching(CLIENT_SECRET),
        previousSecretExpiresAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      const overlapEnds = Date.parse(rotated.body.previousSecretExpiresAt);
      expect(overlapEnds).toBeGreaterThanOrEqual(before + 86_400_000 - 1);
      expect(overlapEnds).toBeLessThanOrEqual(after + 86_400_000);
      expect(rotated.body.clientSecret).not.toBe(app.clientSecret);
      expect((await read(app.id).expect(200)).body).toEqual(rotated.body);
      const again = await rotate(app.id).expect(200);
      expect(new Set([app.clientSecret, rotated.body.clientSecret, again.body.clientSecret]).size).toBe(3);
    });

    it.each(NATIVE)('a %s app has no secret to rotate: 400 no_client_secret, nothing changes', async (type) => {
      const app = (await create({ name: 'Native', type }).expect(201)).body;
      expectProblem(await rotate(app.id), {
        status: 400,
        code: 'no_client_secret',
        detail: 'Native applications have no client secret; they use PKCE',
      });
      expect((await read(app.id).expect(200)).body).toEqual(app);
    });

    it('an unknown application is 404, a malformed id 400 invalid_id', async () => {
      expectProblem(await rotate(randomUUID()), { status: 404, code: 'not_found', detail: 'application not found' });
      expectProblem(await call(api.url, 'post', `${appsPath()}/nope/rotate_secret`, tenant.apiKey), {
        status: 400,
        code: 'invalid_id',
        detail: 'applicationId must be a UUID',
      });
    });

    it('overlapSeconds 0 stops the old secret at once', async () => {
      const app = (await create({ name: 'Rotating', type: 'web' }).expect(201)).body;
      const rotated = await call(api.url, 'post', `${appsPath()}/${app.id}/rotate_secret`, tenant.apiKey, {
        overlapSeconds: 0,
        revokeAccessTokens: true,
      }).expect(200);
      expect(rotated.body.previousSecretExpiresAt).toBeNull();
    });

    it.each([
      ['a secret chosen by the caller', { clientSecret: 'cs_chosen-by-caller' }],
      ['a negative overlap', { overlapSeconds: -1 }],
      ['an overlap beyond 30 days', { overlapSeconds: 30 * 86400 + 1 }],
      ['a fractional overlap', { overlapSeconds: 1.5 }],
      ['revokeAccessTokens as a string', { revokeAccessTokens: 'yes' }],
    ])('refuses %s with validation_failed and changes nothing', async (_, body) => {
      const app = (await create({ name: 'Rotating', type: 'web' }).expect(201)).body;
      expectRefused(await call(api.url, 'post', `${appsPath()}/${app.id}/rotate_secret`, tenant.apiKey, body), Object.keys(body)[0]);
      expect((await read(app.id).expect(200)).body).toEqual(app);
    });
  });

  describe('delete and reach', () => {
    it('deletes an application; afterwards it is not found', async () => {
      const app = (await create({ name: 'Doomed', type: 'web' }).expect(201)).body;
      const response = await call(api.url, 'delete', `${appsPath()}/${app.id}`, tenant.apiKey).expect(204);
      expect(response.text).toBe('');
      for (const [method, suffix] of [
        ['get', ''],
        ['post', ''],
        ['post', '/rotate_secret'],
        ['delete', ''],
      ] as const) {
        expectProblem(
          await call(
            api.url,
            method,
            `${appsPath()}/${app.id}${suffix}`,
            tenant.apiKey,
            method === 'post' && !suffix ? { name: 'x' } : undefined,
          ),
          {
            status: 404,
            code: 'not_found',
            detail: 'application not found',
          },
        );
      }
      expect((await allApps()).map((item) => item.id)).not.toContain(app.id);
    });

    it('an application of another organization is not found through this organization, exactly like a random id', async () => {
      const app = await createApplication(api.url, { ...sibling, apiKey: tenant.apiKey }, { type: 'web' });
      const before = (await read(app.applicationId, sibling).expect(200)).body;
      for (const [method, suffix] of [
        ['get', ''],
        ['post', ''],
        ['post', '/rotate_secret'],
        ['delete', ''],
      ] as const) {
        const body = method === 'post' && !suffix ? { name: 'Hijacked' } : undefined;
        const foreign = await call(api.url, method, `${appsPath()}/${app.applicationId}${suffix}`, tenant.apiKey, body);
        const random = await call(api.url, method, `${appsPath()}/${randomUUID()}${suffix}`, tenant.apiKey, body);
        expectProblem(foreign, { status: 404, code: 'not_found', detail: 'application not found' });
        expectProblem(random, { status: 404, code: 'not_found', detail: 'application not found' });
      }
      expect((await read(app.applicationId, sibling).expect(200)).body).toEqual(before);
    });

    it('an application of another tenant is not found, exactly like a random id', async () => {
      const app = await createApplication(api.url, { ...organization, apiKey: tenant.apiKey }, { type: 'web' });
      const before = (await read(app.applicationId).expect(200)).body;
      const other = await createTenant(api.url);
      for (const [method, suffix] of [
        ['get', ''],
        ['post', ''],
        ['post', '/rotate_secret'],
        ['delete', ''],
      ] as const) {
        await expectSameAsNonexistent(
          api.url,
          method,
          `${appsPath()}/${app.applicationId}${suffix}`,
          other.apiKey,
          method === 'post' && !suffix ? { name: 'Hijacked' } : undefined,
        );
      }
      expect((await read(app.applicationId).expect(200)).body).toEqual(before);
    });
  });

  describe('list', () => {
    it('walks every application, oldest first, without secrets', async () => {
      const org = await createOrganization(api.url, tenant);
      const created = [];
      for (const type of ['web', 'android', 'web', 'ios', 'desktop'])
        created.push((await createApplication(api.url, org, { type })).applicationId);
      const { pages, items } = await walkPages(api.url, appsPath(org), org.apiKey, 2);
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
      expect(items.map((item) => item.id)).toEqual(created);
      expect(items.map((item) => item.type)).toEqual(['web', 'android', 'web', 'ios', 'desktop']);
      for (const item of items) expect(Object.keys(item).sort()).toEqual(SUMMARY_FIELDS);
    });

    it('rejects an invalid cursor and a bad limit', async () => {
      expectProblem(await call(api.url, 'get', appsPath(), tenant.apiKey).query({ cursor: 'bm90IGEgY3Vyc29y' }), {
        status: 400,
        code: 'invalid_cursor',
        detail: 'cursor is not a cursor this API returned',
        instance: `${V2}${appsPath()}`,
      });
      expectProblem(await call(api.url, 'get', appsPath(), tenant.apiKey).query({ limit: '1000' }), {
        ...validationProblem([{ field: 'limit', messages: ['limit must not be greater than 100'] }]),
        instance: `${V2}${appsPath()}`,
      });
    });
  });
});
