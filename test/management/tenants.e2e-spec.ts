import { randomUUID } from 'node:crypto';
import { RunningApp } from '../support/apps';
import { createOrganization, createTenant, TenantFixture } from '../support/fixtures';
import {
  call,
  createOrganizationKey,
  expectProblem,
  expectSameAsNonexistent,
  PLATFORM_KEY,
  startUnthrottledManagementApi,
  V2,
  validationProblem,
  walkPages,
} from '../support/management';

const TENANT_FIELDS = ['createdAt', 'id', 'limits', 'name', 'plan', 'updatedAt'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PLAN_VALUES = 'plan must be one of the following values: free, basic, pro, enterprise';

describe('tenants', () => {
  let api: RunningApp;
  let tenant: TenantFixture;
  const limitsOf = (plan: 'free' | 'basic' | 'pro' | 'enterprise') => api.config.limits.plans[plan];

  beforeAll(async () => {
    // Distinct limits per plan, so a plan change shows in the answer.
    api = await startUnthrottledManagementApi({
      env: {
        PLAN_LIMITS: JSON.stringify({
          free: { minute: 100001, hour: 100002, day: 100003 },
          basic: { minute: 200001, hour: 200002, day: 200003 },
          pro: { minute: 300001, hour: 300002, day: 300003 },
          enterprise: { minute: 400001, hour: 400002, day: 400003 },
        }),
      },
    });
    tenant = await createTenant(api.url, 'basic');
  });
  afterAll(() => api.close());

  describe('create (platform key)', () => {
    it('creates a tenant with its first key, shown once', async () => {
      const response = await call(api.url, 'post', '/tenant', PLATFORM_KEY, { name: '  Acme  ', plan: 'enterprise' }).expect(201);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toEqual({
        tenant: {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          name: 'Acme',
          plan: 'enterprise',
          limits: { minute: 400001, hour: 400002, day: 400003 },
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
        },
        apiKey: {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          name: 'Initial key',
          prefix: response.body.apiKey.key.slice(0, 10),
          organizationId: null,
          role: 'owner',
          createdBy: null,
          lastUsedAt: null,
          revokedAt: null,
          createdAt: expect.stringMatching(ISO),
          key: expect.stringMatching(/^sk_[A-Za-z0-9_-]{43}$/),
        },
        owner: null,
      });
      const own = await call(api.url, 'get', '/tenant', response.body.apiKey.key).expect(200);
      expect(own.body).toEqual({ data: [response.body.tenant], nextCursor: null });
    });

    it.each(['free', 'basic', 'pro', 'enterprise'] as const)('plan %s carries its limits', async (plan) => {
      const response = await call(api.url, 'post', '/tenant', PLATFORM_KEY, { name: `Plan ${plan}`, plan }).expect(201);
      expect(response.body.tenant.limits).toEqual(limitsOf(plan));
    });

    /** A name no other test file uses: a tenant by it would be one these refusals created. */
    const REFUSED = `Refused ${randomUUID()}`;

    it.each([
      ['a missing plan', { name: REFUSED }, [{ field: 'plan', messages: [PLAN_VALUES] }]],
      ['an unknown plan', { name: REFUSED, plan: 'gold' }, [{ field: 'plan', messages: [PLAN_VALUES] }]],
      ['an upper-case plan', { name: REFUSED, plan: 'PRO' }, [{ field: 'plan', messages: [PLAN_VALUES] }]],
      ['a plan as a number', { name: REFUSED, plan: 3 }, [{ field: 'plan', messages: [PLAN_VALUES] }]],
      [
        'a missing name',
        { plan: 'pro' },
        [
          {
            field: 'name',
            messages: ['name must be a string', 'name should not be empty', 'name must be shorter than or equal to 200 characters'],
          },
        ],
      ],
      [
        'a name of 201 characters',
        { name: 't'.repeat(201), plan: 'pro' },
        [{ field: 'name', messages: ['name must be shorter than or equal to 200 characters'] }],
      ],
      [
        'an unknown field',
        { name: REFUSED, plan: 'pro', limits: { minute: 1_000_000 } },
        [{ field: 'limits', messages: ['property limits should not exist'] }],
      ],
    ])('rejects %s and creates nothing', async (_, body, errors) => {
      const before = (await walkPages(api.url, '/tenant', PLATFORM_KEY, 100)).items.length;
      expectProblem(await call(api.url, 'post', '/tenant', PLATFORM_KEY, body), { ...validationProblem(errors), instance: `${V2}/tenant` });
      // other test files create (and rename) tenants concurrently, so compare by this file's own name
      const after = (await walkPages(api.url, '/tenant', PLATFORM_KEY, 100)).items;
      expect(after.length).toBeGreaterThanOrEqual(before);
      expect(after.filter((item) => item.name === REFUSED || item.name === 't'.repeat(201))).toEqual([]);
    });
  });

  describe('list', () => {
    it('the platform key walks every tenant, oldest first, with limit and nextCursor', async () => {
      const created: string[] = [];
      for (let i = 0; i < 3; i++) created.push((await createTenant(api.url, 'free')).tenantId);
      const { pages, items } = await walkPages(api.url, '/tenant', PLATFORM_KEY, 7);
      expect(pages.slice(0, -1).every((page) => page.length === 7)).toBe(true);
      expect(pages.at(-1)!.length).toBeGreaterThan(0);
      const ids = items.map((item) => item.id as string);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.filter((id) => created.includes(id))).toEqual(created);
      const times = items.map((item) => Date.parse(item.createdAt as string));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      for (const item of items) expect(Object.keys(item).sort()).toEqual(TENANT_FIELDS);
    });

    it('a tenant key sees only its own tenant', async () => {
      const response = await call(api.url, 'get', '/tenant', tenant.apiKey).expect(200);
      expect(response.body).toEqual({
        data: [
          {
            id: tenant.tenantId,
            name: expect.any(String),
            plan: 'basic',
            limits: limitsOf('basic'),
            createdAt: expect.stringMatching(ISO),
            updatedAt: expect.stringMatching(ISO),
          },
        ],
        nextCursor: null,
      });
    });

    it('an organization key sees its own tenant', async () => {
      const organization = await createOrganization(api.url, tenant);
      const orgKey = await createOrganizationKey(api.url, organization);
      const response = await call(api.url, 'get', '/tenant', orgKey.key).expect(200);
      expect(response.body.data.map((item: { id: string }) => item.id)).toEqual([tenant.tenantId]);
      expect(response.body.nextCursor).toBeNull();
    });

    it('rejects an invalid cursor and a bad limit', async () => {
      expectProblem(await call(api.url, 'get', '/tenant', PLATFORM_KEY).query({ cursor: 'Zm9vfGJhcg' }), {
        status: 400,
        code: 'invalid_cursor',
        detail: 'cursor is not a cursor this API returned',
        instance: `${V2}/tenant`,
      });
      expectProblem(await call(api.url, 'get', '/tenant', PLATFORM_KEY).query({ limit: '0' }), {
        ...validationProblem([{ field: 'limit', messages: ['limit must not be less than 1'] }]),
        instance: `${V2}/tenant`,
      });
    });
  });

  describe('read', () => {
    it('the platform key, the tenant’s key and its organizations’ keys read the tenant', async () => {
      const organization = await createOrganization(api.url, tenant);
      const orgKey = await createOrganizationKey(api.url, organization);
      const bodies = [];
      for (const key of [PLATFORM_KEY, tenant.apiKey, orgKey.key]) {
        const response = await call(api.url, 'get', `/tenant/${tenant.tenantId}`, key).expect(200);
        expect(Object.keys(response.body).sort()).toEqual(TENANT_FIELDS);
        bodies.push(response.body);
      }
      expect(bodies[1]).toEqual(bodies[0]);
      expect(bodies[2]).toEqual(bodies[0]);
    });

    it('another tenant’s key gets 404, exactly like a random id', async () => {
      const other = await createTenant(api.url);
      await expectSameAsNonexistent(api.url, 'get', `/tenant/${tenant.tenantId}`, other.apiKey);
      expectProblem(await call(api.url, 'get', `/tenant/${randomUUID()}`, PLATFORM_KEY), {
        status: 404,
        code: 'not_found',
        detail: 'tenant not found',
      });
    });

    it('a malformed id is 400 invalid_id', async () => {
      expectProblem(await call(api.url, 'get', '/tenant/not-a-uuid', PLATFORM_KEY), {
        status: 400,
        code: 'invalid_id',
        detail: 'tenantId must be a UUID',
      });
    });
  });

  describe('update', () => {
    let subject: TenantFixture;
    beforeEach(async () => {
      subject = await createTenant(api.url, 'basic');
    });
    const read = () => call(api.url, 'get', `/tenant/${subject.tenantId}`, PLATFORM_KEY).expect(200);

    it('the tenant key renames its tenant', async () => {
      const before = (await read()).body;
      const response = await call(api.url, 'post', `/tenant/${subject.tenantId}`, subject.apiKey, { name: ' Renamed ' }).expect(200);
      expect(response.body).toEqual({ ...before, name: 'Renamed', updatedAt: expect.stringMatching(ISO) });
      expect((await read()).body).toEqual(response.body);
    });

    it('the tenant key may send its current plan unchanged', async () => {
      const response = await call(api.url, 'post', `/tenant/${subject.tenantId}`, subject.apiKey, {
        name: 'Same plan',
        plan: 'basic',
      }).expect(200);
      expect(response.body).toMatchObject({ name: 'Same plan', plan: 'basic' });
    });

    it('only the platform key changes the plan; a refused change changes nothing', async () => {
      const before = (await read()).body;
      expectProblem(await call(api.url, 'post', `/tenant/${subject.tenantId}`, subject.apiKey, { name: 'Upgraded', plan: 'enterprise' }), {
        status: 403,
        code: 'plan_change_forbidden',
        detail: 'Only the platform key can change a plan',
      });
      expect((await read()).body).toEqual(before);

      const response = await call(api.url, 'post', `/tenant/${subject.tenantId}`, PLATFORM_KEY, { plan: 'enterprise' }).expect(200);
      expect(response.body).toEqual({
        ...before,
        plan: 'enterprise',
        limits: limitsOf('enterprise'),
        updatedAt: expect.stringMatching(ISO),
      });
      const own = await call(api.url, 'get', '/tenant', subject.apiKey).expect(200);
      expect(own.body.data[0]).toMatchObject({ plan: 'enterprise', limits: limitsOf('enterprise') });
    });

    it('an organization key may not change its tenant', async () => {
      const organization = await createOrganization(api.url, subject);
      const orgKey = await createOrganizationKey(api.url, organization);
      const before = (await read()).body;
      expectProblem(await call(api.url, 'post', `/tenant/${subject.tenantId}`, orgKey.key, { name: 'By org key' }), {
        status: 403,
        code: 'tenant_key_required',
        detail: 'Only a tenant API key or a member can do this, not an organization key',
      });
      expect((await read()).body).toEqual(before);
    });

    it('another tenant’s key gets 404, exactly like a random id, and changes nothing', async () => {
      const before = (await read()).body;
      await expectSameAsNonexistent(api.url, 'post', `/tenant/${subject.tenantId}`, tenant.apiKey, { name: 'Hijacked' });
      expect((await read()).body).toEqual(before);
    });

    it.each([
      ['an unknown plan', { plan: 'platinum' }, [{ field: 'plan', messages: [PLAN_VALUES] }]],
      ['a null plan', { plan: null }, [{ field: 'plan', messages: [PLAN_VALUES] }]],
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
        'a valid name with a name of 201 characters',
        { name: 'n'.repeat(201) },
        [{ field: 'name', messages: ['name must be shorter than or equal to 200 characters'] }],
      ],
      [
        'a valid name with an unknown field',
        { name: 'Valid', id: randomUUID() },
        [{ field: 'id', messages: ['property id should not exist'] }],
      ],
    ])('a failed update (%s) changes nothing', async (_, body, errors) => {
      const before = (await read()).body;
      expectProblem(await call(api.url, 'post', `/tenant/${subject.tenantId}`, PLATFORM_KEY, body), validationProblem(errors));
      expect((await read()).body).toEqual(before);
    });
  });
});
