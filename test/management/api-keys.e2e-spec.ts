import { randomUUID } from 'node:crypto';
import { ManualClock } from '@sesame/common';
import { RunningApp } from '../support/apps';
import { createOrganization, createTenant, OrganizationFixture, TenantFixture } from '../support/fixtures';
import {
  call,
  createOrganizationKey,
  expectInvalidApiKey,
  expectProblem,
  expectSameAsNonexistent,
  startUnthrottledManagementApi,
  V2,
  validationProblem,
  walkPages,
} from '../support/management';

const KEY_FIELDS = ['createdAt', 'createdBy', 'id', 'lastUsedAt', 'name', 'organizationId', 'prefix', 'revokedAt', 'role'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const API_KEY = /^sk_[A-Za-z0-9_-]{43}$/;
const usedAt = (value: unknown) => (value === null || (typeof value === 'string' && ISO.test(value)) ? 'null or a time' : value);

describe('API keys', () => {
  let api: RunningApp;
  let tenant: TenantFixture;

  beforeAll(async () => {
    api = await startUnthrottledManagementApi();
    tenant = await createTenant(api.url);
  });
  afterAll(() => api.close());

  describe('tenant keys', () => {
    it('the tenant starts with its initial key, listed without the secret', async () => {
      const fresh = await createTenant(api.url);
      const { items } = await walkPages(api.url, '/tenant/api_key', fresh.apiKey, 100);
      // lastUsedAt is recorded off the request's path: null or a time, depending on timing
      expect(items.map((item) => ({ ...item, lastUsedAt: usedAt(item.lastUsedAt) }))).toEqual([
        {
          id: expect.any(String),
          name: 'Initial key',
          prefix: fresh.apiKey.slice(0, 10),
          organizationId: null,
          role: 'owner',
          createdBy: null,
          lastUsedAt: 'null or a time',
          revokedAt: null,
          createdAt: expect.stringMatching(ISO),
        },
      ]);
    });

    it('creates a key that is shown once and works at once', async () => {
      const response = await call(api.url, 'post', '/tenant/api_key', tenant.apiKey, { name: '  CI deploys ' }).expect(201);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body).sort()).toEqual([...KEY_FIELDS, 'key'].sort());
      expect(response.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'CI deploys',
        prefix: response.body.key.slice(0, 10),
        organizationId: null,
        role: 'admin',
        createdBy: { type: 'api_key', id: expect.any(String), name: 'Initial key' },
        lastUsedAt: null,
        revokedAt: null,
        createdAt: expect.stringMatching(ISO),
        key: expect.stringMatching(API_KEY),
      });
      const listed = (await walkPages(api.url, '/tenant/api_key', tenant.apiKey, 100)).items.find((item) => item.id === response.body.id);
      expect(listed).toEqual({ ...response.body, key: undefined, lastUsedAt: null });
      expect(JSON.stringify((await walkPages(api.url, '/tenant/api_key', tenant.apiKey, 100)).items)).not.toContain(response.body.key);
      const own = await call(api.url, 'get', '/tenant', response.body.key).expect(200);
      expect(own.body.data[0].id).toBe(tenant.tenantId);
    });

    it('revocation takes effect at once on this instance, even for a key just used', async () => {
      const created = (await call(api.url, 'post', '/tenant/api_key', tenant.apiKey, { name: 'Short-lived' }).expect(201)).body;
      await call(api.url, 'get', '/organization', created.key).expect(200);
      await call(api.url, 'get', '/organization', created.key).expect(200);

      const response = await call(api.url, 'delete', `/tenant/api_key/${created.id}`, tenant.apiKey).expect(204);
      expect(response.text).toBe('');
      expectInvalidApiKey(await call(api.url, 'get', '/organization', created.key));
      expectInvalidApiKey(await call(api.url, 'post', '/tenant/api_key', created.key, { name: 'Sneaky' }));

      const listed = (await walkPages(api.url, '/tenant/api_key', tenant.apiKey, 100)).items.find((item) => item.id === created.id);
      expect(listed).toMatchObject({ id: created.id, revokedAt: expect.stringMatching(ISO) });
      // revoking twice is harmless and keeps the first revocation time
      await call(api.url, 'delete', `/tenant/api_key/${created.id}`, tenant.apiKey).expect(204);
      const again = (await walkPages(api.url, '/tenant/api_key', tenant.apiKey, 100)).items.find((item) => item.id === created.id);
      expect(again!.revokedAt).toBe(listed!.revokedAt);
    });

    it('a key may revoke itself', async () => {
      const created = (await call(api.url, 'post', '/tenant/api_key', tenant.apiKey, { name: 'Self' }).expect(201)).body;
      await call(api.url, 'delete', `/tenant/api_key/${created.id}`, created.key).expect(204);
      expectInvalidApiKey(await call(api.url, 'get', '/tenant/api_key', created.key));
    });

    it('another instance stops accepting a revoked key within API_KEY_CACHE_SECONDS', async () => {
      const clock = new ManualClock();
      const second = await startUnthrottledManagementApi({ clock });
      try {
        const created = (await call(api.url, 'post', '/tenant/api_key', tenant.apiKey, { name: 'Two instances' }).expect(201)).body;
        await call(second.url, 'get', '/tenant', created.key).expect(200);
        await call(api.url, 'delete', `/tenant/api_key/${created.id}`, tenant.apiKey).expect(204);
        expectInvalidApiKey(await call(api.url, 'get', '/tenant', created.key));
        clock.advance(second.config.apiKeys.cacheSeconds);
        expectInvalidApiKey(await call(second.url, 'get', '/tenant', created.key));
      } finally {
        await second.close();
      }
    });

    it('cannot reach an organization key or another tenant’s key: 404 exactly like a random id', async () => {
      const organization = await createOrganization(api.url, tenant);
      const orgKey = await createOrganizationKey(api.url, organization);
      await expectSameAsNonexistent(api.url, 'delete', `/tenant/api_key/${orgKey.id}`, tenant.apiKey);
      await call(api.url, 'get', `/organization/${organization.organizationId}`, orgKey.key).expect(200);

      const other = await createTenant(api.url);
      const otherKeyId = (await walkPages(api.url, '/tenant/api_key', other.apiKey, 100)).items[0].id as string;
      await expectSameAsNonexistent(api.url, 'delete', `/tenant/api_key/${otherKeyId}`, tenant.apiKey);
      await call(api.url, 'get', '/tenant', other.apiKey).expect(200);
    });

    it('lists only the tenant’s own keys, never organization keys', async () => {
      const organization = await createOrganization(api.url, tenant);
      const orgKey = await createOrganizationKey(api.url, organization);
      const { items } = await walkPages(api.url, '/tenant/api_key', tenant.apiKey, 100);
      expect(items.map((item) => item.id)).not.toContain(orgKey.id);
      expect(items.every((item) => item.organizationId === null)).toBe(true);
    });

    it('walks the keys with limit and nextCursor, oldest first', async () => {
      const fresh = await createTenant(api.url);
      const ids = [(await walkPages(api.url, '/tenant/api_key', fresh.apiKey, 1)).items[0].id];
      for (let i = 0; i < 4; i++)
        ids.push((await call(api.url, 'post', '/tenant/api_key', fresh.apiKey, { name: `Key ${i}` }).expect(201)).body.id);
      const { pages, items } = await walkPages(api.url, '/tenant/api_key', fresh.apiKey, 2);
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
      expect(items.map((item) => item.id)).toEqual(ids);
      for (const item of items) expect(Object.keys(item).sort()).toEqual(KEY_FIELDS);
      expectProblem(await call(api.url, 'get', '/tenant/api_key', fresh.apiKey).query({ cursor: 'xyz' }), {
        status: 400,
        code: 'invalid_cursor',
        detail: 'cursor is not a cursor this API returned',
        instance: `${V2}/tenant/api_key`,
      });
    });

    it.each([
      [
        'a missing name',
        {},
        [
          {
            field: 'name',
            messages: ['name must be a string', 'name should not be empty', 'name must be shorter than or equal to 200 characters'],
          },
        ],
      ],
      [
        'a name of 201 characters',
        { name: 'k'.repeat(201) },
        [{ field: 'name', messages: ['name must be shorter than or equal to 200 characters'] }],
      ],
      [
        'a boolean name',
        { name: true },
        [{ field: 'name', messages: ['name must be a string', 'name must be shorter than or equal to 200 characters'] }],
      ],
      [
        'an organizationId (org keys have their own endpoint)',
        { name: 'k', organizationId: randomUUID() },
        [{ field: 'organizationId', messages: ['property organizationId should not exist'] }],
      ],
      [
        'a key of its own choosing',
        { name: 'k', key: `sk_${'a'.repeat(43)}` },
        [{ field: 'key', messages: ['property key should not exist'] }],
      ],
    ])('rejects %s and creates nothing', async (_, body, errors) => {
      const before = await walkPages(api.url, '/tenant/api_key', tenant.apiKey, 100);
      expectProblem(await call(api.url, 'post', '/tenant/api_key', tenant.apiKey, body), {
        ...validationProblem(errors),
        instance: `${V2}/tenant/api_key`,
      });
      expect((await walkPages(api.url, '/tenant/api_key', tenant.apiKey, 100)).items).toEqual(before.items);
    });

    it('a malformed key id is 400 invalid_id', async () => {
      expectProblem(await call(api.url, 'delete', '/tenant/api_key/not-a-uuid', tenant.apiKey), {
        status: 400,
        code: 'invalid_id',
        detail: 'keyId must be a UUID',
      });
    });
  });

  describe('organization keys', () => {
    let organization: OrganizationFixture;
    let sibling: OrganizationFixture;
    beforeAll(async () => {
      organization = await createOrganization(api.url, tenant);
      sibling = await createOrganization(api.url, tenant);
    });
    const keysPath = (org = organization) => `/organization/${org.organizationId}/api_key`;

    it('a tenant key creates an organization key, shown once, that reaches only its organization', async () => {
      const response = await call(api.url, 'post', keysPath(), tenant.apiKey, { name: 'Org backend' }).expect(201);
      expect(response.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Org backend',
        prefix: response.body.key.slice(0, 10),
        organizationId: organization.organizationId,
        role: 'admin',
        createdBy: { type: 'api_key', id: expect.any(String), name: 'Initial key' },
        lastUsedAt: null,
        revokedAt: null,
        createdAt: expect.stringMatching(ISO),
        key: expect.stringMatching(API_KEY),
      });
      const key = response.body.key as string;
      await call(api.url, 'get', `/organization/${organization.organizationId}`, key).expect(200);
      expectProblem(await call(api.url, 'get', `/organization/${sibling.organizationId}`, key), {
        status: 404,
        code: 'not_found',
        detail: 'organization not found',
      });
      const listed = (await walkPages(api.url, keysPath(), tenant.apiKey, 100)).items;
      const item = listed.find((entry) => entry.id === response.body.id)!;
      expect({ ...item, lastUsedAt: usedAt(item.lastUsedAt) }).toEqual({ ...response.body, key: undefined, lastUsedAt: 'null or a time' });
      expect(JSON.stringify(listed)).not.toContain(key);
    });

    it('an organization key manages its organization’s keys, including revoking itself', async () => {
      const first = await createOrganizationKey(api.url, { ...organization, apiKey: tenant.apiKey });
      const second = (await call(api.url, 'post', keysPath(), first.key, { name: 'Made by org key' }).expect(201)).body;
      expect(second.organizationId).toBe(organization.organizationId);
      const ids = (await walkPages(api.url, keysPath(), first.key, 100)).items.map((item) => item.id);
      expect(ids).toEqual(expect.arrayContaining([first.id, second.id]));

      await call(api.url, 'delete', `${keysPath()}/${second.id}`, first.key).expect(204);
      expectInvalidApiKey(await call(api.url, 'get', `/organization/${organization.organizationId}`, second.key));
      await call(api.url, 'delete', `${keysPath()}/${first.id}`, first.key).expect(204);
      expectInvalidApiKey(await call(api.url, 'get', keysPath(), first.key));
    });

    it('revocation by the tenant takes effect at once, even for a key just used', async () => {
      const orgKey = await createOrganizationKey(api.url, { ...organization, apiKey: tenant.apiKey });
      await call(api.url, 'get', `/organization/${organization.organizationId}/user`, orgKey.key).expect(200);
      await call(api.url, 'delete', `${keysPath()}/${orgKey.id}`, tenant.apiKey).expect(204);
      expectInvalidApiKey(await call(api.url, 'get', `/organization/${organization.organizationId}/user`, orgKey.key));
      const listed = (await walkPages(api.url, keysPath(), tenant.apiKey, 100)).items.find((item) => item.id === orgKey.id);
      expect(listed!.revokedAt).toEqual(expect.stringMatching(ISO));
    });

    it('keys of a sibling organization, and tenant keys, are not found through this organization', async () => {
      const siblingKey = await createOrganizationKey(api.url, { ...sibling, apiKey: tenant.apiKey });
      const tenantKeyId = (await call(api.url, 'post', '/tenant/api_key', tenant.apiKey, { name: 'Tenant' }).expect(201)).body.id;
      for (const id of [siblingKey.id, tenantKeyId]) {
        expectProblem(await call(api.url, 'delete', `${keysPath()}/${id}`, tenant.apiKey), {
          status: 404,
          code: 'not_found',
          detail: 'API key not found',
        });
      }
      expectProblem(await call(api.url, 'delete', `${keysPath()}/${randomUUID()}`, tenant.apiKey), {
        status: 404,
        code: 'not_found',
        detail: 'API key not found',
      });
      await call(api.url, 'get', `/organization/${sibling.organizationId}`, siblingKey.key).expect(200);
      expect(
        (await walkPages(api.url, keysPath(), tenant.apiKey, 100)).items.every(
          (item) => item.organizationId === organization.organizationId,
        ),
      ).toBe(true);
    });

    it('an organization key cannot reach a sibling organization’s keys: 404 exactly like a random id', async () => {
      const orgKey = await createOrganizationKey(api.url, { ...organization, apiKey: tenant.apiKey });
      const siblingKey = await createOrganizationKey(api.url, { ...sibling, apiKey: tenant.apiKey });
      await expectSameAsNonexistent(api.url, 'get', keysPath(sibling), orgKey.key);
      await expectSameAsNonexistent(api.url, 'post', keysPath(sibling), orgKey.key, { name: 'Intruder' });
      await expectSameAsNonexistent(api.url, 'delete', `${keysPath(sibling)}/${siblingKey.id}`, orgKey.key);
      await call(api.url, 'get', `/organization/${sibling.organizationId}`, siblingKey.key).expect(200);
    });

    it('walks the keys with limit and nextCursor', async () => {
      const org = await createOrganization(api.url, tenant);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await createOrganizationKey(api.url, { ...org, apiKey: tenant.apiKey }, `K${i}`)).id);
      const { pages, items } = await walkPages(api.url, keysPath(org), tenant.apiKey, 2);
      expect(pages.map((page) => page.length)).toEqual([2, 1]);
      expect(items.map((item) => item.id)).toEqual(ids);
      expectProblem(await call(api.url, 'get', keysPath(org), tenant.apiKey).query({ cursor: '!!' }), {
        status: 400,
        code: 'invalid_cursor',
        detail: 'cursor is not a cursor this API returned',
        instance: `${V2}${keysPath(org)}`,
      });
    });

    it('rejects bad input and creates nothing', async () => {
      const before = (await walkPages(api.url, keysPath(), tenant.apiKey, 100)).items;
      expectProblem(await call(api.url, 'post', keysPath(), tenant.apiKey, { name: 'x'.repeat(201) }), {
        ...validationProblem([{ field: 'name', messages: ['name must be shorter than or equal to 200 characters'] }]),
        instance: `${V2}${keysPath()}`,
      });
      expectProblem(await call(api.url, 'post', keysPath(), tenant.apiKey, { name: 'x', organizationId: sibling.organizationId }), {
        ...validationProblem([{ field: 'organizationId', messages: ['property organizationId should not exist'] }]),
        instance: `${V2}${keysPath()}`,
      });
      expect((await walkPages(api.url, keysPath(), tenant.apiKey, 100)).items).toEqual(before);
      expectProblem(await call(api.url, 'delete', `${keysPath()}/123`, tenant.apiKey), {
        status: 400,
        code: 'invalid_id',
        detail: 'keyId must be a UUID',
      });
    });
  });
});
