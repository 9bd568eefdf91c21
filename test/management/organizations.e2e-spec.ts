import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { RunningApp } from '../support/apps';
import { createApplication, createOrganization, createTenant, OrganizationFixture, TenantFixture } from '../support/fixtures';
import {
  call,
  countRows,
  createOrganizationKey,
  createUser,
  expectInvalidApiKey,
  expectProblem,
  startUnthrottledManagementApi,
  V2,
  validationProblem,
  walkPages,
} from '../support/management';

const ORGANIZATION_FIELDS = [
  'autologin',
  'createdAt',
  'id',
  'linkTtlSeconds',
  'name',
  'passkeys',
  'tenantId',
  'updatedAt',
  'whitelistDomains',
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('organizations', () => {
  let api: RunningApp;
  let tenant: TenantFixture;

  beforeAll(async () => {
    api = await startUnthrottledManagementApi();
    tenant = await createTenant(api.url);
  });
  afterAll(() => api.close());

  const read = (id: string, key = tenant.apiKey) => call(api.url, 'get', `/organization/${id}`, key);
  const update = (id: string, body: unknown, key = tenant.apiKey) => call(api.url, 'post', `/organization/${id}`, key, body);
  const create = (body: unknown, key = tenant.apiKey) => call(api.url, 'post', '/organization', key, body);

  describe('the two endpoints of the interface specification', () => {
    let organization: OrganizationFixture;
    beforeAll(async () => {
      organization = await createOrganization(api.url, tenant, { name: 'Spec Org', whitelistDomains: ['https://app.example.com'] });
    });

    it('GET {base_url}/v2/organization/{id} answers the organization as JSON', async () => {
      const response = await request(api.url)
        .get(`/api/v2/organization/${organization.organizationId}`)
        .set('accept', 'application/json')
        .set('authorization', `Bearer ${tenant.apiKey}`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body).sort()).toEqual(ORGANIZATION_FIELDS);
      expect(response.body).toEqual({
        id: organization.organizationId,
        name: 'Spec Org',
        tenantId: tenant.tenantId,
        whitelistDomains: ['https://app.example.com'],
        autologin: false,
        linkTtlSeconds: 600,
        passkeys: 'offered',
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
    });

    it('POST {base_url}/v2/organization/{id} with {"name": ...} renames it and answers the organization as JSON', async () => {
      const before = (await read(organization.organizationId).expect(200)).body;
      const response = await request(api.url)
        .post(`/api/v2/organization/${organization.organizationId}`)
        .set('accept', 'application/json')
        .set('content-type', 'application/json')
        .set('authorization', `Bearer ${tenant.apiKey}`)
        .send(JSON.stringify({ name: 'Spec Org renamed' }));
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toEqual({ ...before, name: 'Spec Org renamed', updatedAt: expect.stringMatching(ISO) });
      expect(Date.parse(response.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
      expect((await read(organization.organizationId).expect(200)).body).toEqual(response.body);
    });

    it('both work with the organization’s own key', async () => {
      const { key } = await createOrganizationKey(api.url, organization);
      expect((await read(organization.organizationId, key).expect(200)).body.id).toBe(organization.organizationId);
      expect((await update(organization.organizationId, { name: 'By org key' }, key).expect(200)).body.name).toBe('By org key');
    });
  });

  describe('create', () => {
    it('applies defaults', async () => {
      const response = await create({ name: 'Defaults' }).expect(201);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Defaults',
        tenantId: tenant.tenantId,
        whitelistDomains: [],
        autologin: false,
        linkTtlSeconds: 600,
        passkeys: 'offered',
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      expect((await read(response.body.id).expect(200)).body).toEqual(response.body);
    });

    it('takes the passkeys policy (off, offered, required) on creation and update, and refuses anything else', async () => {
      const created = await create({ name: 'Passkeys', passkeys: 'required' }).expect(201);
      expect(created.body.passkeys).toBe('required');
      expect((await update(created.body.id, { passkeys: 'off' }).expect(200)).body.passkeys).toBe('off');
      expect((await update(created.body.id, { name: 'Still off' }).expect(200)).body.passkeys).toBe('off');
      await update(created.body.id, { passkeys: 'sometimes' }).expect(400);
      await create({ name: 'Bad', passkeys: true }).expect(400);
    });

    it('stores every setting, normalising whitelist domains and dropping duplicates', async () => {
      const response = await create({
        name: '  Acme Europe  ',
        whitelistDomains: [
          'HTTPS://Bücher.Example:443/',
          'https://*.Example.com',
          'http://LOCALHOST:4000',
          'https://xn--bcher-kva.example',
          'http://[::1]:8080',
        ],
        autologin: true,
        linkTtlSeconds: 86400,
      }).expect(201);
      expect(response.body).toMatchObject({
        name: 'Acme Europe',
        whitelistDomains: ['https://xn--bcher-kva.example', 'https://*.example.com', 'http://localhost:4000', 'http://[::1]:8080'],
        autologin: true,
        linkTtlSeconds: 86400,
      });
      expect((await read(response.body.id).expect(200)).body).toEqual(response.body);
    });

    it('accepts a name of exactly 200 characters and the smallest link lifetime', async () => {
      const response = await create({ name: 'n'.repeat(200), linkTtlSeconds: 60 }).expect(201);
      expect(response.body).toMatchObject({ name: 'n'.repeat(200), linkTtlSeconds: 60 });
    });

    describe('rejects bad input with 400 and creates nothing', () => {
      const cases: [string, unknown, ReturnType<typeof validationProblem>][] = [
        [
          'a missing name',
          {},
          validationProblem([
            {
              field: 'name',
              messages: ['name must be a string', 'name should not be empty', 'name must be shorter than or equal to 200 characters'],
            },
          ]),
        ],
        ['a blank name', { name: '   ' }, validationProblem([{ field: 'name', messages: ['name should not be empty'] }])],
        [
          'a name of 201 characters',
          { name: 'n'.repeat(201) },
          validationProblem([{ field: 'name', messages: ['name must be shorter than or equal to 200 characters'] }]),
        ],
        [
          'a name of 10 000 characters',
          { name: 'n'.repeat(10_000) },
          validationProblem([{ field: 'name', messages: ['name must be shorter than or equal to 200 characters'] }]),
        ],
        [
          'a numeric name',
          { name: 123 },
          validationProblem([
            { field: 'name', messages: ['name must be a string', 'name must be shorter than or equal to 200 characters'] },
          ]),
        ],
        [
          'an object as name',
          { name: { first: 'x' } },
          validationProblem([
            { field: 'name', messages: ['name must be a string', 'name must be shorter than or equal to 200 characters'] },
          ]),
        ],
        [
          'autologin as a string',
          { name: 'x', autologin: 'true' },
          validationProblem([{ field: 'autologin', messages: ['autologin must be a boolean value'] }]),
        ],
        [
          'linkTtlSeconds as a string',
          { name: 'x', linkTtlSeconds: '600' },
          validationProblem([
            {
              field: 'linkTtlSeconds',
              messages: [
                'linkTtlSeconds must not be greater than 86400',
                'linkTtlSeconds must not be less than 60',
                'linkTtlSeconds must be an integer number',
              ],
            },
          ]),
        ],
        [
          'linkTtlSeconds below 60',
          { name: 'x', linkTtlSeconds: 59 },
          validationProblem([{ field: 'linkTtlSeconds', messages: ['linkTtlSeconds must not be less than 60'] }]),
        ],
        [
          'linkTtlSeconds above a day',
          { name: 'x', linkTtlSeconds: 86401 },
          validationProblem([{ field: 'linkTtlSeconds', messages: ['linkTtlSeconds must not be greater than 86400'] }]),
        ],
        [
          'a fractional linkTtlSeconds',
          { name: 'x', linkTtlSeconds: 600.5 },
          validationProblem([{ field: 'linkTtlSeconds', messages: ['linkTtlSeconds must be an integer number'] }]),
        ],
        [
          'whitelistDomains as a string',
          { name: 'x', whitelistDomains: 'https://example.com' },
          validationProblem([
            {
              field: 'whitelistDomains',
              messages: ['whitelistDomains must contain no more than 50 elements', 'whitelistDomains must be an array'],
            },
          ]),
        ],
        [
          'a number among whitelistDomains',
          { name: 'x', whitelistDomains: ['https://example.com', 42] },
          validationProblem([{ field: 'whitelistDomains', messages: ['each value in whitelistDomains must be a string'] }]),
        ],
        [
          '51 whitelist domains',
          { name: 'x', whitelistDomains: Array.from({ length: 51 }, (_, i) => `https://d${i}.example.com`) },
          validationProblem([{ field: 'whitelistDomains', messages: ['whitelistDomains must contain no more than 50 elements'] }]),
        ],
        [
          'an unknown field',
          { name: 'x', plan: 'enterprise' },
          validationProblem([{ field: 'plan', messages: ['property plan should not exist'] }]),
        ],
        [
          'a tenantId (no moving into another tenant)',
          { name: 'x', tenantId: randomUUID() },
          validationProblem([{ field: 'tenantId', messages: ['property tenantId should not exist'] }]),
        ],
        ['an id', { name: 'x', id: randomUUID() }, validationProblem([{ field: 'id', messages: ['property id should not exist'] }])],
        [
          'several problems at once',
          { name: '', autologin: 1, color: 'red' },
          validationProblem([
            { field: 'color', messages: ['property color should not exist'] },
            { field: 'name', messages: ['name should not be empty'] },
            { field: 'autologin', messages: ['autologin must be a boolean value'] },
          ]),
        ],
      ];

      it.each(cases)('%s', async (_, body, problem) => {
        const before = await walkPages(api.url, '/organization', tenant.apiKey, 100);
        expectProblem(await create(body), { ...problem, instance: `${V2}/organization` });
        expect((await walkPages(api.url, '/organization', tenant.apiKey, 100)).items).toEqual(before.items);
      });
    });

    describe('rejects bad whitelist domains, naming each one', () => {
      it.each([
        ['http://example.com', 'must use https (http is allowed only for loopback hosts)'],
        ['https://example.com/path', 'must be an origin such as https://example.com, without path, query or fragment'],
        ['https://example.com?q=1', 'must be an origin such as https://example.com, without path, query or fragment'],
        ['https://example.com#top', 'must be an origin such as https://example.com, without path, query or fragment'],
        ['https://user:pw@example.com', 'must not contain credentials'],
        ['https://example.com@evil.com', 'must not contain credentials'],
        ['https://ex%61mple.com', 'must not contain percent-encoding'],
        ['https://example.com\\', 'must be an origin such as https://example.com, without path, query or fragment'],
        ['https://exa mple.com', 'must be an origin such as https://example.com, without path, query or fragment'],
        ['example.com', 'must be an origin such as https://example.com, without path, query or fragment'],
        ['javascript://example.com', 'must be an origin such as https://example.com, without path, query or fragment'],
        [
          'https://*.com',
          'a wildcard needs a registrable domain below it, as in https://*.example.com, never a public suffix such as *.co.uk or *.vercel.app',
        ],
        [
          'https://*.co.uk',
          'a wildcard needs a registrable domain below it, as in https://*.example.com, never a public suffix such as *.co.uk or *.vercel.app',
        ],
        [
          'https://*.vercel.app',
          'a wildcard needs a registrable domain below it, as in https://*.example.com, never a public suffix such as *.co.uk or *.vercel.app',
        ],
        [
          'https://*.127.0.0.1',
          'a wildcard needs a registrable domain below it, as in https://*.example.com, never a public suffix such as *.co.uk or *.vercel.app',
        ],
        ['https://a.*.example.com', 'a wildcard is allowed only as the whole leftmost label, as in https://*.example.com'],
        ['https://*example.com', 'a wildcard is allowed only as the whole leftmost label, as in https://*.example.com'],
        ['https://example.com.', 'must have a host without a trailing dot'],
        ['https://example.com:99999', 'is not a valid origin'],
        ['', 'must be 1 to 300 characters'],
      ])('%j', async (domain, reason) => {
        const response = await create({ name: 'Bad domains', whitelistDomains: ['https://ok.example.com', domain] });
        expectProblem(response, {
          ...validationProblem([{ field: 'whitelistDomains.1', messages: [`whitelistDomains.1 ${reason}`] }]),
          instance: `${V2}/organization`,
        });
      });

      it('lists every bad entry at once', async () => {
        const response = await create({
          name: 'Bad domains',
          whitelistDomains: ['http://evil.com', 'https://ok.example.com', 'https://*.com'],
        });
        expectProblem(response, {
          ...validationProblem([
            { field: 'whitelistDomains.0', messages: ['whitelistDomains.0 must use https (http is allowed only for loopback hosts)'] },
            {
              field: 'whitelistDomains.2',
              messages: [
                'whitelistDomains.2 a wildcard needs a registrable domain below it, as in https://*.example.com, never a public suffix such as *.co.uk or *.vercel.app',
              ],
            },
          ]),
          instance: `${V2}/organization`,
        });
      });
    });

    it('rejects a malformed JSON body', async () => {
      const response = await request(api.url)
        .post(`${V2}/organization`)
        .set('Authorization', `Bearer ${tenant.apiKey}`)
        .set('Content-Type', 'application/json')
        .send('{"name": "unterminated');
      expectProblem(response, {
        status: 400,
        code: 'malformed_body',
        detail: 'The request body is not valid JSON',
        instance: `${V2}/organization`,
      });
    });
  });

  describe('update', () => {
    let organization: OrganizationFixture;
    beforeEach(async () => {
      organization = await createOrganization(api.url, tenant, {
        name: 'Before',
        whitelistDomains: ['https://before.example.com'],
        autologin: false,
        linkTtlSeconds: 900,
      });
    });

    it('changes only the fields sent', async () => {
      const before = (await read(organization.organizationId).expect(200)).body;
      const ttl = await update(organization.organizationId, { linkTtlSeconds: 120 }).expect(200);
      expect(ttl.body).toEqual({ ...before, linkTtlSeconds: 120, updatedAt: expect.stringMatching(ISO) });
      const rest = await update(organization.organizationId, {
        autologin: true,
        whitelistDomains: ['https://*.After.example', 'http://127.0.0.1:9000'],
      }).expect(200);
      expect(rest.body).toEqual({
        ...before,
        linkTtlSeconds: 120,
        autologin: true,
        whitelistDomains: ['https://*.after.example', 'http://127.0.0.1:9000'],
        updatedAt: expect.stringMatching(ISO),
      });
      expect((await read(organization.organizationId).expect(200)).body).toEqual(rest.body);
    });

    it('an empty body changes nothing', async () => {
      const before = (await read(organization.organizationId).expect(200)).body;
      const response = await update(organization.organizationId, {}).expect(200);
      expect({ ...response.body, updatedAt: undefined }).toEqual({ ...before, updatedAt: undefined });
    });

    it('can empty the whitelist', async () => {
      expect((await update(organization.organizationId, { whitelistDomains: [] }).expect(200)).body.whitelistDomains).toEqual([]);
    });

    it.each([
      [
        'a valid name with a bad whitelist domain',
        { name: 'After', whitelistDomains: ['http://evil.com'] },
        validationProblem([
          { field: 'whitelistDomains.0', messages: ['whitelistDomains.0 must use https (http is allowed only for loopback hosts)'] },
        ]),
      ],
      [
        'a valid name with a bad link lifetime',
        { name: 'After', linkTtlSeconds: 10 },
        validationProblem([{ field: 'linkTtlSeconds', messages: ['linkTtlSeconds must not be less than 60'] }]),
      ],
      [
        'a valid name with an unknown field',
        { name: 'After', tenantId: randomUUID() },
        validationProblem([{ field: 'tenantId', messages: ['property tenantId should not exist'] }]),
      ],
      [
        'a name of 201 characters',
        { name: 'x'.repeat(201) },
        validationProblem([{ field: 'name', messages: ['name must be shorter than or equal to 200 characters'] }]),
      ],
      [
        'a null name',
        { name: null },
        validationProblem([
          {
            field: 'name',
            messages: ['name must be a string', 'name should not be empty', 'name must be shorter than or equal to 200 characters'],
          },
        ]),
      ],
      ['autologin null', { autologin: null }, validationProblem([{ field: 'autologin', messages: ['autologin must be a boolean value'] }])],
    ])('a failed update (%s) changes nothing', async (_, body, problem) => {
      const before = (await read(organization.organizationId).expect(200)).body;
      expectProblem(await update(organization.organizationId, body), problem);
      expect((await read(organization.organizationId).expect(200)).body).toEqual(before);
    });

    it('a malformed JSON body changes nothing', async () => {
      const before = (await read(organization.organizationId).expect(200)).body;
      const response = await request(api.url)
        .post(`${V2}/organization/${organization.organizationId}`)
        .set('Authorization', `Bearer ${tenant.apiKey}`)
        .set('Content-Type', 'application/json')
        .send('{"name": "After",}');
      expectProblem(response, { status: 400, code: 'malformed_body', detail: 'The request body is not valid JSON' });
      expect((await read(organization.organizationId).expect(200)).body).toEqual(before);
    });
  });

  describe('ids', () => {
    it.each(['not-a-uuid', '123', '00000000-0000-0000-0000-00000000000g', "1' OR '1'='1", '%20'])(
      'a malformed id %j is 400 invalid_id on every method',
      async (id) => {
        const path = `/organization/${encodeURIComponent(id)}`;
        for (const method of ['get', 'post', 'delete'] as const) {
          expectProblem(await call(api.url, method, path, tenant.apiKey, method === 'post' ? { name: 'x' } : undefined), {
            status: 400,
            code: 'invalid_id',
            detail: 'id must be a UUID',
            instance: `${V2}${path}`,
          });
        }
      },
    );

    it('a well-formed id that does not exist is 404 on every method', async () => {
      const id = randomUUID();
      for (const method of ['get', 'post', 'delete'] as const) {
        expectProblem(await call(api.url, method, `/organization/${id}`, tenant.apiKey, method === 'post' ? { name: 'x' } : undefined), {
          status: 404,
          code: 'not_found',
          detail: 'organization not found',
        });
      }
    });
  });

  describe('delete', () => {
    it('removes the organization with its users, applications and keys; its key stops working at once', async () => {
      const organization = await createOrganization(api.url, tenant, { name: 'Doomed' });
      const orgKey = await createOrganizationKey(api.url, organization);
      const asOrg = { ...organization, apiKey: orgKey.key };
      await createUser(api.url, asOrg, { email: 'doomed@example.com' });
      const application = await createApplication(api.url, asOrg, { type: 'web' });
      // the key works (and is now in this instance's cache)
      await call(api.url, 'get', '/tenant', orgKey.key).expect(200);
      await read(organization.organizationId, orgKey.key).expect(200);

      const response = await call(api.url, 'delete', `/organization/${organization.organizationId}`, tenant.apiKey).expect(204);
      expect(response.text).toBe('');

      expectInvalidApiKey(await call(api.url, 'get', '/tenant', orgKey.key));
      expectInvalidApiKey(await read(organization.organizationId, orgKey.key));
      expectProblem(await read(organization.organizationId), { status: 404, code: 'not_found', detail: 'organization not found' });
      expectProblem(await call(api.url, 'get', `/organization/${organization.organizationId}/user`, tenant.apiKey), {
        status: 404,
        code: 'not_found',
        detail: 'organization not found',
      });
      expectProblem(
        await call(api.url, 'get', `/organization/${organization.organizationId}/application/${application.applicationId}`, tenant.apiKey),
        {
          status: 404,
          code: 'not_found',
          detail: 'organization not found',
        },
      );
      expect(await countRows('user', 'organization_id = $1', [organization.organizationId])).toBe(0);
      expect(await countRows('application', 'organization_id = $1', [organization.organizationId])).toBe(0);
      expect(await countRows('api_key', 'organization_id = $1', [organization.organizationId])).toBe(0);
      expect((await walkPages(api.url, '/organization', tenant.apiKey, 100)).items.map((item) => item.id)).not.toContain(
        organization.organizationId,
      );
      // a second delete finds nothing
      expectProblem(await call(api.url, 'delete', `/organization/${organization.organizationId}`, tenant.apiKey), {
        status: 404,
        code: 'not_found',
        detail: 'organization not found',
      });
    });

    it('an organization key may delete its own organization, and is gone with it', async () => {
      const organization = await createOrganization(api.url, tenant, { name: 'Self-destruct' });
      const orgKey = await createOrganizationKey(api.url, organization);
      await call(api.url, 'delete', `/organization/${organization.organizationId}`, orgKey.key).expect(204);
      expectInvalidApiKey(await read(organization.organizationId, orgKey.key));
      expectProblem(await read(organization.organizationId), { status: 404, code: 'not_found', detail: 'organization not found' });
    });

    it('deleting one organization leaves the others alone', async () => {
      const keep = await createOrganization(api.url, tenant, { name: 'Keep' });
      const keepKey = await createOrganizationKey(api.url, keep);
      const keepUser = await createUser(api.url, keep, { email: 'keep@example.com' });
      const doomed = await createOrganization(api.url, tenant, { name: 'Doomed 2' });
      await createUser(api.url, doomed, { email: 'keep@example.com' });
      await call(api.url, 'delete', `/organization/${doomed.organizationId}`, tenant.apiKey).expect(204);
      await read(keep.organizationId, keepKey.key).expect(200);
      expect(
        (await call(api.url, 'get', `/organization/${keep.organizationId}/user/${keepUser.id}`, keepKey.key).expect(200)).body.email,
      ).toBe('keep@example.com');
    });
  });

  describe('list', () => {
    it('walks every organization of the tenant, oldest first, with limit and nextCursor', async () => {
      const own = await createTenant(api.url);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await createOrganization(api.url, own, { name: `Page ${i}` })).organizationId);
      const { pages, items } = await walkPages(api.url, '/organization', own.apiKey, 2);
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
      expect(items.map((item) => item.id)).toEqual(ids);
      expect(items.map((item) => item.name)).toEqual(['Page 0', 'Page 1', 'Page 2', 'Page 3', 'Page 4']);
      expect(items.every((item) => Object.keys(item).sort().join() === ORGANIZATION_FIELDS.join())).toBe(true);

      const exact = await walkPages(api.url, '/organization', own.apiKey, 5);
      expect(exact.pages.map((page) => page.length)).toEqual([5]);
      const first = await call(api.url, 'get', '/organization', own.apiKey).expect(200);
      expect(first.body).toEqual({ data: items, nextCursor: null });
    });

    it('shows only the tenant’s own organizations', async () => {
      const other = await createTenant(api.url);
      const foreign = await createOrganization(api.url, other);
      const mine = (await walkPages(api.url, '/organization', tenant.apiKey, 100)).items;
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.every((item) => item.tenantId === tenant.tenantId)).toBe(true);
      expect(mine.map((item) => item.id)).not.toContain(foreign.organizationId);
    });

    it('an empty tenant has an empty first page', async () => {
      const empty = await createTenant(api.url);
      expect((await call(api.url, 'get', '/organization', empty.apiKey).expect(200)).body).toEqual({ data: [], nextCursor: null });
    });

    it.each([
      ['limit=0', { limit: '0' }, [{ field: 'limit', messages: ['limit must not be less than 1'] }]],
      ['limit=101', { limit: '101' }, [{ field: 'limit', messages: ['limit must not be greater than 100'] }]],
      ['limit=-1', { limit: '-1' }, [{ field: 'limit', messages: ['limit must not be less than 1'] }]],
      ['limit=2.5', { limit: '2.5' }, [{ field: 'limit', messages: ['limit must be an integer number'] }]],
      [
        'limit=ten',
        { limit: 'ten' },
        [
          {
            field: 'limit',
            messages: ['limit must not be greater than 100', 'limit must not be less than 1', 'limit must be an integer number'],
          },
        ],
      ],
      ['an unknown parameter', { sort: 'name' }, [{ field: 'sort', messages: ['property sort should not exist'] }]],
      [
        'a cursor of 201 characters',
        { cursor: 'c'.repeat(201) },
        [{ field: 'cursor', messages: ['cursor must be shorter than or equal to 200 characters'] }],
      ],
    ])('rejects %s', async (_, query, errors) => {
      expectProblem(await call(api.url, 'get', '/organization', tenant.apiKey).query(query), {
        ...validationProblem(errors),
        instance: `${V2}/organization`,
      });
    });

    it.each([
      ['garbage', 'garbage'],
      ['an empty cursor', ''],
      ['an id of dashes', Buffer.from(`2024-01-01T00:00:00.000Z|${'-'.repeat(36)}`).toString('base64url')],
      [
        'a date Postgres cannot store',
        Buffer.from('-271821-04-20T00:00:00.000Z|00000000-0000-4000-8000-000000000000').toString('base64url'),
      ],
      ['a date without a time', Buffer.from('2024-01-01|00000000-0000-4000-8000-000000000000').toString('base64url')],
    ])('answers 400 invalid_cursor for %s', async (_, cursor) => {
      expectProblem(await call(api.url, 'get', '/organization', tenant.apiKey).query({ cursor }), {
        status: 400,
        code: 'invalid_cursor',
        detail: 'cursor is not a cursor this API returned',
        instance: `${V2}/organization`,
      });
    });
  });
});
