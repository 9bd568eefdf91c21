import { ManualClock } from '@sesame/common';
import { CONSOLE_SETUP_TIMEOUT_MS, ConsoleBrowser, ConsoleStack, signInThroughConsole, startConsoleStack } from '../support/console';
import { NO_SWEEPS } from '../support/direct-auth';
import { createApplication, createOrganization, OrganizationFixture } from '../support/fixtures';
import { uniqueEmail } from '../support/login';
import { call, expectProblem, PLATFORM_KEY, UNTHROTTLED_ENV } from '../support/management';
import { SmtpSink } from '../support/smtp-sink';

/**
 * Members through the console, on a clock the test moves: a member's power does not outlive them in
 * the keys they made (removal revokes them, demotion caps them, each with an audit event); the
 * changes that hand out or take away power need a sign-in within MEMBER_REAUTH_SECONDS; and a
 * console session ends after MEMBER_SESSION_IDLE_SECONDS without use or MEMBER_SESSION_MAX_SECONDS
 * in all.
 */
describe('members’ keys, fresh sign-ins and session limits', () => {
  const smtp = new SmtpSink();
  const clock = new ManualClock(new Date('2034-02-01T09:00:00.000Z'));
  let stack: ConsoleStack;
  let tenantId: string;
  let ownerKey: string;

  /** A member of the tenant with this role, signed in through the console now. */
  async function member(role: 'admin' | 'viewer' | 'owner'): Promise<{ id: string; browser: ConsoleBrowser }> {
    const email = uniqueEmail(`member-${role}`);
    const { id } = (await call(stack.origin, 'post', '/tenant/member', ownerKey, { email, role }).expect(201)).body;
    return { id, browser: await signInThroughConsole(stack, smtp, email) };
  }

  const inTenant = (browser: ConsoleBrowser, method: 'get' | 'post' | 'delete', path: string, body?: object) => {
    const test =
      method === 'get'
        ? browser.get(`/console/api/v2${path}`)
        : method === 'post'
          ? browser.post(`/console/api/v2${path}`, body)
          : browser.delete(`/console/api/v2${path}`);
    return test.set('Sesame-Tenant', tenantId);
  };
  const keyWorks = async (key: string) => (await call(stack.origin, 'get', '/tenant', key)).status === 200;
  const auditOf = async (targetId: string) =>
    (await call(stack.origin, 'get', `/tenant/audit_event?targetId=${targetId}`, ownerKey).expect(200)).body.data;

  beforeAll(async () => {
    await smtp.start();
    stack = await startConsoleStack(smtp.url, { clock, env: { ...UNTHROTTLED_ENV, ...NO_SWEEPS, API_KEY_CACHE_SECONDS: '0' } });
    const created = await call(stack.origin, 'post', '/tenant', PLATFORM_KEY, { name: 'Keys of members', plan: 'pro' }).expect(201);
    tenantId = created.body.tenant.id;
    ownerKey = created.body.apiKey.key;
  }, CONSOLE_SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await stack?.close();
    await smtp.stop();
  });

  it('demoting a member caps the keys they made (and their keys’ keys); removing them revokes those keys, each with an audit event', async () => {
    const admin = await member('admin');
    const made = (await inTenant(admin.browser, 'post', '/tenant/api_key', { name: 'Made by a member', role: 'admin' }).expect(201)).body;
    expect(made.createdBy).toEqual({ type: 'member', id: admin.id, name: expect.any(String) });
    const madeByKey = (
      await call(stack.origin, 'post', '/tenant/api_key', made.key, { name: 'Made by that key', role: 'admin' }).expect(201)
    ).body;
    const unrelated = (
      await call(stack.origin, 'post', '/tenant/api_key', ownerKey, { name: 'Not the member’s', role: 'admin' }).expect(201)
    ).body;

    await call(stack.origin, 'post', `/tenant/member/${admin.id}`, ownerKey, { role: 'viewer' }).expect(200);
    const roles = Object.fromEntries(
      (await call(stack.origin, 'get', '/tenant/api_key?limit=100', ownerKey).expect(200)).body.data.map(
        (key: { id: string; role: string }) => [key.id, key.role],
      ),
    );
    expect([roles[made.id], roles[madeByKey.id], roles[unrelated.id]]).toEqual(['viewer', 'viewer', 'admin']);
    expectProblem(await call(stack.origin, 'post', '/organization', made.key, { name: 'No longer' }), {
      status: 403,
      code: 'insufficient_role',
      detail: "This needs the admin role; this key's role is viewer",
    });
    expect(await auditOf(made.id)).toContainEqual(
      expect.objectContaining({ action: 'api_key.update', changes: { role: 'viewer', reason: 'creator_demoted' } }),
    );

    await call(stack.origin, 'delete', `/tenant/member/${admin.id}`, ownerKey).expect(204);
    expect([await keyWorks(made.key), await keyWorks(madeByKey.key), await keyWorks(unrelated.key)]).toEqual([false, false, true]);
    for (const key of [made, madeByKey]) {
      expect(await auditOf(key.id)).toContainEqual(
        expect.objectContaining({
          action: 'api_key.revoke',
          changes: { reason: 'creator_removed' },
          actor: expect.objectContaining({ type: 'api_key' }),
        }),
      );
    }
  });

  describe('a recent sign-in for changes that hand out or take away power', () => {
    let organization: OrganizationFixture;
    let appPath: string;

    beforeAll(async () => {
      organization = await createOrganization(stack.origin, { tenantId, apiKey: ownerKey });
      appPath = `/organization/${organization.organizationId}/application/${(await createApplication(stack.origin, organization, { type: 'web' })).applicationId}`;
    });

    it('a sign-in older than MEMBER_REAUTH_SECONDS gets 403 reauthentication_required and changes nothing; a fresh one passes', async () => {
      const owner = await member('owner');
      const before = (await call(stack.origin, 'get', `${appPath}?include=secret`, ownerKey).expect(200)).body.clientSecret;
      clock.advance(601);
      for (const [method, path] of [
        ['post', `${appPath}/rotate_secret`],
        ['get', `${appPath}?include=secret`],
        ['post', '/tenant/api_key'],
        ['delete', `/organization/${organization.organizationId}`],
      ] as const) {
        const stale = await inTenant(owner.browser, method, path, method === 'post' ? { name: 'x' } : undefined);
        expect([method, path, stale.status, stale.body.code]).toEqual([method, path, 403, 'reauthentication_required']);
      }
      // What does not hand out power needs no fresh sign-in.
      await inTenant(owner.browser, 'get', appPath).expect(200);
      await inTenant(owner.browser, 'post', `/organization/${organization.organizationId}`, { name: 'Renamed by a member' }).expect(200);
      expect((await call(stack.origin, 'get', `${appPath}?include=secret`, ownerKey).expect(200)).body.clientSecret).toBe(before);
      // API keys are not affected.
      await call(stack.origin, 'post', `${appPath}/rotate_secret`, ownerKey, { overlapSeconds: 0 }).expect(200);

      const fresh = await signInThroughConsole(
        stack,
        smtp,
        (await inTenant(owner.browser, 'get', '/tenant/member?limit=100')).body.data.find((entry: { id: string }) => entry.id === owner.id)
          .email,
      );
      await inTenant(fresh, 'post', `${appPath}/rotate_secret`, {}).expect(200);
    });
  });

  it('a console session ends after MEMBER_SESSION_IDLE_SECONDS without use, and after MEMBER_SESSION_MAX_SECONDS in all', async () => {
    const idle = await member('viewer');
    await inTenant(idle.browser, 'get', '/organization').expect(200);
    clock.advance(12 * 3600 + 1);
    expect((await inTenant(idle.browser, 'get', '/organization')).status).toBe(401);

    // Used every 11 hours: never idle, until 7 days (168 hours) after the sign-in.
    const busy = await member('viewer');
    for (let hours = 11; hours <= 165; hours += 11) {
      clock.advance(11 * 3600);
      await inTenant(busy.browser, 'get', '/organization').expect(200);
    }
    clock.advance(11 * 3600);
    expect((await inTenant(busy.browser, 'get', '/organization')).status).toBe(401);
  });
});
