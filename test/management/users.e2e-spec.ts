import { randomUUID } from 'node:crypto';
import { RunningApp } from '../support/apps';
import { createOrganization, createTenant, OrganizationFixture, TenantFixture } from '../support/fixtures';
import {
  call,
  createUser,
  expectProblem,
  expectSameAsNonexistent,
  startUnthrottledManagementApi,
  V2,
  validationProblem,
  walkPages,
} from '../support/management';

const USER_FIELDS = ['blocked', 'createdAt', 'email', 'emailVerified', 'id', 'lastLoginAt', 'name', 'organizationId', 'updatedAt'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const INVALID_EMAIL = validationProblem([{ field: 'email', messages: ['email must be a valid e-mail address'] }]);

describe('users', () => {
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

  const usersPath = (org = organization) => `/organization/${org.organizationId}/user`;
  const create = (body: unknown, org = organization) => call(api.url, 'post', usersPath(org), tenant.apiKey, body);
  const read = (id: string, org = organization) => call(api.url, 'get', `${usersPath(org)}/${id}`, tenant.apiKey);
  const allUsers = async (org = organization) => (await walkPages(api.url, usersPath(org), tenant.apiKey, 100)).items;

  describe('create', () => {
    it('creates a user with defaults', async () => {
      const response = await create({ email: 'grace@example.com' }).expect(201);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body).sort()).toEqual(USER_FIELDS);
      expect(response.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        organizationId: organization.organizationId,
        email: 'grace@example.com',
        name: null,
        blocked: false,
        emailVerified: false,
        lastLoginAt: null,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      expect((await read(response.body.id).expect(200)).body).toEqual(response.body);
    });

    it('stores name and blocked, trimming the name', async () => {
      const response = await create({ email: 'blocked@example.com', name: '  Blocked User ', blocked: true }).expect(201);
      expect(response.body).toMatchObject({ email: 'blocked@example.com', name: 'Blocked User', blocked: true });
    });

    it.each([
      ['  Ada@Example.COM  ', 'ada@example.com'],
      ['ADA.LOVELACE+Test@Bücher.Example', 'ada.lovelace+test@xn--bcher-kva.example'],
      ['x@ＥＸＡＭＰＬＥ.org', 'x@example.org'],
    ])('normalises %j to %j', async (input, email) => {
      const response = await create({ email: input }).expect(201);
      expect(response.body.email).toBe(email);
      expect((await read(response.body.id).expect(200)).body.email).toBe(email);
    });

    it('rejects a second user with the same address in any spelling, with 409 user_exists, and creates nothing', async () => {
      const first = await create({ email: 'dup@bücher.example', name: 'First' }).expect(201);
      const before = await allUsers();
      for (const spelling of ['dup@bücher.example', 'DUP@BÜCHER.EXAMPLE', ' dup@xn--bcher-kva.example ', 'Dup@Xn--Bcher-Kva.Example']) {
        expectProblem(await create({ email: spelling, name: 'Second' }), {
          status: 409,
          code: 'user_exists',
          detail: 'A user with this e-mail address already exists in the organization',
          instance: `${V2}${usersPath()}`,
        });
      }
      expect(await allUsers()).toEqual(before);
      expect((await read(first.body.id).expect(200)).body.name).toBe('First');
    });

    it('the same address may exist once in each organization', async () => {
      const here = await create({ email: 'shared@example.com' }).expect(201);
      const there = await create({ email: 'SHARED@example.com' }, sibling).expect(201);
      expect(here.body.id).not.toBe(there.body.id);
      expect(there.body.organizationId).toBe(sibling.organizationId);
    });

    it.each([
      ['no @', 'not-an-email'],
      ['no domain', 'ada@'],
      ['single-label domain', 'ada@localhost'],
      ['IP address', 'ada@127.0.0.1'],
      ['address literal', 'ada@[127.0.0.1]'],
      ['quoted local part', '"ada lovelace"@example.com'],
      ['two @', 'ada@evil.com@example.com'],
      ['display name', 'Ada <ada@example.com>'],
      ['header injection', 'ada@example.com\r\nBcc: eve@evil.com'],
      ['list', 'ada@example.com,eve@evil.com'],
      ['empty', ''],
      ['blank', '   '],
      ['local part of 65 characters', `${'a'.repeat(65)}@example.com`],
      ['too long once normalised', `${'a'.repeat(60)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`],
    ])('rejects an invalid address (%s) and creates nothing', async (_, email) => {
      const before = await allUsers();
      expectProblem(await create({ email }), { ...INVALID_EMAIL, instance: `${V2}${usersPath()}` });
      expect(await allUsers()).toEqual(before);
    });

    it.each([
      [
        'a missing email',
        {},
        [{ field: 'email', messages: ['email must be shorter than or equal to 320 characters', 'email must be a string'] }],
      ],
      [
        'a numeric email',
        { email: 42 },
        [{ field: 'email', messages: ['email must be shorter than or equal to 320 characters', 'email must be a string'] }],
      ],
      [
        'an email array',
        { email: ['a@example.com'] },
        [{ field: 'email', messages: ['email must be shorter than or equal to 320 characters', 'email must be a string'] }],
      ],
      [
        'an email of 321 characters',
        { email: `${'a'.repeat(300)}@example.com` + 'x'.repeat(9) },
        [{ field: 'email', messages: ['email must be shorter than or equal to 320 characters'] }],
      ],
      [
        'a name of 201 characters',
        { email: 'n@example.com', name: 'n'.repeat(201) },
        [{ field: 'name', messages: ['name must be shorter than or equal to 200 characters'] }],
      ],
      [
        'a null name',
        { email: 'n@example.com', name: null },
        [
          {
            field: 'name',
            messages: ['name must be a string', 'name should not be empty', 'name must be shorter than or equal to 200 characters'],
          },
        ],
      ],
      [
        'blocked as a string',
        { email: 'n@example.com', blocked: 'yes' },
        [{ field: 'blocked', messages: ['blocked must be a boolean value'] }],
      ],
      ['blocked null', { email: 'n@example.com', blocked: null }, [{ field: 'blocked', messages: ['blocked must be a boolean value'] }]],
      [
        'emailVerified (set only by a login)',
        { email: 'n@example.com', emailVerified: true },
        [{ field: 'emailVerified', messages: ['property emailVerified should not exist'] }],
      ],
      [
        'organizationId',
        { email: 'n@example.com', organizationId: randomUUID() },
        [{ field: 'organizationId', messages: ['property organizationId should not exist'] }],
      ],
    ])('rejects %s and creates nothing', async (_, body, errors) => {
      const before = await allUsers();
      expectProblem(await create(body), { ...validationProblem(errors), instance: `${V2}${usersPath()}` });
      expect(await allUsers()).toEqual(before);
    });
  });

  describe('read, update, delete', () => {
    let user: Record<string, unknown> & { id: string };
    beforeEach(async () => {
      user = await createUser(
        api.url,
        { ...organization, apiKey: tenant.apiKey },
        { email: `u-${randomUUID()}@example.com`, name: 'Before' },
      );
    });

    it('updates name and blocked, and nothing else', async () => {
      const blocked = await call(api.url, 'post', `${usersPath()}/${user.id}`, tenant.apiKey, { blocked: true }).expect(200);
      expect(blocked.body).toEqual({ ...user, blocked: true, updatedAt: expect.stringMatching(ISO) });
      const renamed = await call(api.url, 'post', `${usersPath()}/${user.id}`, tenant.apiKey, { name: ' After ', blocked: false }).expect(
        200,
      );
      expect(renamed.body).toEqual({ ...user, name: 'After', blocked: false, updatedAt: expect.stringMatching(ISO) });
      expect((await read(user.id).expect(200)).body).toEqual(renamed.body);
    });

    it.each([
      [
        'an email (addresses cannot change)',
        { email: 'new@example.com' },
        [{ field: 'email', messages: ['property email should not exist'] }],
      ],
      ['emailVerified', { emailVerified: true }, [{ field: 'emailVerified', messages: ['property emailVerified should not exist'] }]],
      [
        'a valid name with blocked as a number',
        { name: 'After', blocked: 1 },
        [{ field: 'blocked', messages: ['blocked must be a boolean value'] }],
      ],
      ['blocked null', { blocked: null }, [{ field: 'blocked', messages: ['blocked must be a boolean value'] }]],
      [
        'a name of 201 characters',
        { name: 'x'.repeat(201) },
        [{ field: 'name', messages: ['name must be shorter than or equal to 200 characters'] }],
      ],
    ])('a failed update (%s) changes nothing', async (_, body, errors) => {
      expectProblem(await call(api.url, 'post', `${usersPath()}/${user.id}`, tenant.apiKey, body), validationProblem(errors));
      expect((await read(user.id).expect(200)).body).toEqual(user);
    });

    it('deletes a user; afterwards it is not found', async () => {
      const response = await call(api.url, 'delete', `${usersPath()}/${user.id}`, tenant.apiKey).expect(204);
      expect(response.text).toBe('');
      expectProblem(await read(user.id), { status: 404, code: 'not_found', detail: 'user not found' });
      expectProblem(await call(api.url, 'delete', `${usersPath()}/${user.id}`, tenant.apiKey), {
        status: 404,
        code: 'not_found',
        detail: 'user not found',
      });
      expect((await allUsers()).map((item) => item.id)).not.toContain(user.id);
      // the address is free again
      await create({ email: user.email }).expect(201);
    });

    it('a user of another organization of the tenant is not found through this organization, exactly like a random id', async () => {
      for (const method of ['get', 'post', 'delete'] as const) {
        const path = `${usersPath(sibling)}/${user.id}`;
        const body = method === 'post' ? { name: 'Hijacked' } : undefined;
        expectProblem(await call(api.url, method, path, tenant.apiKey, body), { status: 404, code: 'not_found', detail: 'user not found' });
        const random = await call(api.url, method, `${usersPath(sibling)}/${randomUUID()}`, tenant.apiKey, body);
        expectProblem(random, { status: 404, code: 'not_found', detail: 'user not found' });
      }
      expect((await read(user.id).expect(200)).body).toEqual(user);
    });

    it('a user of another tenant is not found, exactly like a random id', async () => {
      const other = await createTenant(api.url);
      for (const method of ['get', 'post', 'delete'] as const) {
        await expectSameAsNonexistent(
          api.url,
          method,
          `${usersPath()}/${user.id}`,
          other.apiKey,
          method === 'post' ? { name: 'Hijacked' } : undefined,
        );
      }
      expect((await read(user.id).expect(200)).body).toEqual(user);
    });

    it.each(['nope', '0', `${randomUUID()}x`])('a malformed user id %j is 400 invalid_id', async (id) => {
      for (const method of ['get', 'post', 'delete'] as const) {
        expectProblem(await call(api.url, method, `${usersPath()}/${id}`, tenant.apiKey, method === 'post' ? { name: 'x' } : undefined), {
          status: 400,
          code: 'invalid_id',
          detail: 'userId must be a UUID',
        });
      }
    });

    it('a malformed organization id is 400 invalid_id', async () => {
      expectProblem(await call(api.url, 'get', `/organization/xyz/user/${user.id}`, tenant.apiKey), {
        status: 400,
        code: 'invalid_id',
        detail: 'organizationId must be a UUID',
      });
      expectProblem(await call(api.url, 'get', '/organization/xyz/user', tenant.apiKey), {
        status: 400,
        code: 'invalid_id',
        detail: 'organizationId must be a UUID',
      });
    });
  });

  describe('list', () => {
    let org: OrganizationFixture;
    const emails = ['p0@example.com', 'p1@example.com', 'p2@bücher.example', 'p3@example.com', 'p4@example.com'];
    const ids: string[] = [];
    beforeAll(async () => {
      org = await createOrganization(api.url, tenant);
      for (const email of emails) ids.push((await createUser(api.url, org, { email })).id);
    });

    it('walks every user, oldest first, with limit and nextCursor', async () => {
      const { pages, items } = await walkPages(api.url, usersPath(org), org.apiKey, 2);
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
      expect(items.map((item) => item.id)).toEqual(ids);
      expect(items.map((item) => item.email)).toEqual([
        'p0@example.com',
        'p1@example.com',
        'p2@xn--bcher-kva.example',
        'p3@example.com',
        'p4@example.com',
      ]);
      expect(items.every((item) => Object.keys(item).sort().join() === USER_FIELDS.join())).toBe(true);
    });

    it.each([
      ['P2@BÜCHER.EXAMPLE', [2]],
      ['  p2@xn--bcher-kva.example ', [2]],
      ['p0@example.com', [0]],
      ['nobody@example.com', []],
    ])('filters by e-mail %j after normalisation', async (email, expected) => {
      const response = await call(api.url, 'get', usersPath(org), tenant.apiKey).query({ email }).expect(200);
      expect(response.body).toEqual({ data: expected.map((index) => expect.objectContaining({ id: ids[index] })), nextCursor: null });
    });

    it('the e-mail filter combines with pagination', async () => {
      const { items } = await walkPages(api.url, usersPath(org), tenant.apiKey, 1, { email: 'P3@example.com' });
      expect(items.map((item) => item.id)).toEqual([ids[3]]);
    });

    it('rejects an invalid e-mail filter', async () => {
      expectProblem(await call(api.url, 'get', usersPath(org), tenant.apiKey).query({ email: 'not-an-email' }), {
        ...INVALID_EMAIL,
        instance: `${V2}${usersPath(org)}`,
      });
    });

    it('rejects a bad limit, an unknown parameter and an invalid cursor', async () => {
      expectProblem(await call(api.url, 'get', usersPath(org), tenant.apiKey).query({ limit: '0' }), {
        ...validationProblem([{ field: 'limit', messages: ['limit must not be less than 1'] }]),
        instance: `${V2}${usersPath(org)}`,
      });
      expectProblem(await call(api.url, 'get', usersPath(org), tenant.apiKey).query({ blocked: 'true' }), {
        ...validationProblem([{ field: 'blocked', messages: ['property blocked should not exist'] }]),
        instance: `${V2}${usersPath(org)}`,
      });
      expectProblem(await call(api.url, 'get', usersPath(org), tenant.apiKey).query({ cursor: 'AAAA' }), {
        status: 400,
        code: 'invalid_cursor',
        detail: 'cursor is not a cursor this API returned',
        instance: `${V2}${usersPath(org)}`,
      });
    });

    it('another organization’s list does not show these users', async () => {
      const other = await allUsers(sibling);
      expect(other.map((item) => item.id)).not.toEqual(expect.arrayContaining([ids[0]]));
      expect(other.every((item) => item.organizationId === sibling.organizationId)).toBe(true);
    });
  });
});
