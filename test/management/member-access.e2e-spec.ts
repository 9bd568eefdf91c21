import request, { Test } from 'supertest';
import { CacheInvalidationBus, ManualClock, Role } from '@sesame/common';
import { AccessRow, accessRows, Caller, MATRIX_CALLERS, OpenApiDocument } from '../../apps/management-api/src/access/access-matrix';
import { RunningApp } from '../support/apps';
import { CONSOLE_SETUP_TIMEOUT_MS, ConsoleStack, signInThroughConsole, startConsoleStack } from '../support/console';
import { createApplication, createOrganization } from '../support/fixtures';
import { loginByLink, uniqueEmail } from '../support/login';
import {
  call,
  createUser,
  describeAnswer,
  expectedAnswer,
  expectedOutcome,
  expectEveryRouteRuled,
  expectProblem,
  Method,
  PLATFORM_KEY,
  probe,
  ProbeWorld,
  routeOf,
  servedOpenApi,
  startUnthrottledManagementApi,
  successStatus,
  UNTHROTTLED_ENV,
  writtenLabels,
} from '../support/management';
import { SmtpSink } from '../support/smtp-sink';
import { exchangeWeb, WEB_REDIRECT_URI } from '../support/tokens';

/**
 * Members on every route of the management API (a console access token with `Sesame-Tenant`),
 * against the route's own rule: the `x-sesame-access` of the served OpenAPI document, which
 * AccessGuard enforces and docs/access.md shows.
 * - owners, admins and viewers get what their role allows, and 403 `insufficient_role` beyond it;
 * - signed in longer ago than MEMBER_REAUTH_SECONDS, they get 403 `reauthentication_required` on
 *   the routes that ask for a recent sign-in, and what they got before everywhere else;
 * - a member of another tenant reaches only their own tenant: this one's objects are 404, exactly
 *   like ids that do not exist;
 * - someone signed in who is no member of the tenant gets 403 `not_a_member`, without
 *   `Sesame-Tenant` 400; a token of another application, or a revoked one, is 401.
 *
 * The members' requests go to two instances of the management API whose clocks stand still: one
 * right after the sign-ins, one MEMBER_REAUTH_SECONDS and a second later.
 */

type Person = 'owner' | 'admin' | 'viewer' | 'nonMember' | 'otherTenantMember' | 'revoked';

interface World extends ProbeWorld {
  otherTenantId: string;
  clientSecret: string;
  tokens: Record<Person | 'otherApp', string>;
}

interface MemberCaller {
  label: string;
  /** For callers the route's rule decides on (they are members of a tenant). */
  caller?: Caller;
  token: Person | 'otherApp';
  /** The tenant named in `Sesame-Tenant`: this one, another, or none. */
  tenant: 'this' | 'other' | null;
  /** Signed in longer ago than MEMBER_REAUTH_SECONDS. */
  stale?: boolean;
  /** For the others: what they get on a route that needs a member of the tenant. */
  refusal?: string;
}

const NOT_A_MEMBER = '403 not_a_member: You are not a member of this tenant';
const INVALID_TOKEN = '401 invalid_member_token: The console access token is not valid: expired, revoked or issued to another application';

/** Every member column of the access matrix, signed in recently and long ago; then callers out of reach. */
const CALLERS: MemberCaller[] = [
  ...MATRIX_CALLERS.filter(({ caller }) => caller.kind === 'member').flatMap(({ heading, caller }) => [
    { label: heading, caller: { ...caller, recentSignIn: true }, token: caller.role as Role, tenant: 'this' as const },
    {
      label: `${heading}, signed in long ago`,
      caller: { ...caller, recentSignIn: false },
      token: caller.role as Role,
      tenant: 'this' as const,
      stale: true,
    },
  ]),
  {
    label: 'owner of another tenant',
    caller: { kind: 'member', role: 'owner', reach: 'otherTenant' },
    token: 'otherTenantMember',
    tenant: 'other',
  },
  { label: 'no member', token: 'nonMember', tenant: 'this', refusal: NOT_A_MEMBER },
  { label: 'owner naming a tenant they are no member of', token: 'owner', tenant: 'other', refusal: NOT_A_MEMBER },
  {
    label: 'owner without Sesame-Tenant',
    token: 'owner',
    tenant: null,
    refusal: '400 tenant_header_required: A console access token needs the id of the tenant it acts in, as the Sesame-Tenant header',
  },
  { label: 'token of another application', token: 'otherApp', tenant: 'this', refusal: INVALID_TOKEN },
  { label: 'signed-out token', token: 'revoked', tenant: 'this', refusal: INVALID_TOKEN },
];

let stack: ConsoleStack;
const api = () => stack.origin;

describe('members on every route, by its access rule (console access tokens)', () => {
  const smtp = new SmtpSink();
  let world: World;
  let document: OpenApiDocument;
  let rows: AccessRow[];
  /** Management API instances whose clocks stand still: right after the sign-ins, and MEMBER_REAUTH_SECONDS and a second later. */
  let recent: RunningApp;
  let stale: RunningApp;

  /** A member's request, with the caller's token and Sesame-Tenant, to the instance whose clock fits their sign-in. */
  function asMember(caller: MemberCaller, method: Method, path: string, body?: unknown): Test {
    const test = call((caller.stale ? stale : recent).url, method, path, world.tokens[caller.token], body);
    return caller.tenant ? test.set('Sesame-Tenant', caller.tenant === 'this' ? world.tenantId : world.otherTenantId) : test;
  }

  function expected(row: AccessRow, caller: MemberCaller): string {
    if (caller.caller) return expectedAnswer(document, row, caller.caller, recent.config.members.reauthSeconds);
    // A valid token is a signed-in person, who may call the person route, member or not.
    const admitted = row.access.kind === 'public' || (row.access.kind === 'person' && caller.refusal !== INVALID_TOKEN);
    return admitted ? `${successStatus(document, row)}` : caller.refusal!;
  }

  beforeAll(async () => {
    await smtp.start();
    stack = await startConsoleStack(smtp.url, { env: { ...UNTHROTTLED_ENV, API_KEY_CACHE_SECONDS: '0' } });
    const emails = Object.fromEntries(
      (['owner', 'admin', 'viewer', 'nonMember', 'otherTenantMember', 'revoked'] as const).map((person) => [person, uniqueEmail(person)]),
    ) as Record<Person, string>;
    const created = await call(api(), 'post', '/tenant', PLATFORM_KEY, {
      name: 'Members tenant',
      plan: 'pro',
      ownerEmail: emails.owner,
    }).expect(201);
    const tenant = { tenantId: created.body.tenant.id, apiKey: created.body.apiKey.key };
    const other = await call(api(), 'post', '/tenant', PLATFORM_KEY, {
      name: 'Other tenant',
      plan: 'pro',
      ownerEmail: emails.otherTenantMember,
    }).expect(201);
    for (const [person, role] of [
      ['admin', 'admin'],
      ['viewer', 'viewer'],
      ['revoked', 'owner'],
    ] as const) {
      await call(api(), 'post', '/tenant/member', tenant.apiKey, { email: emails[person], role }).expect(201);
    }
    const organization = await createOrganization(api(), tenant, { name: 'Org' });
    const user = await createUser(api(), organization, { email: 'matrix@example.com', name: 'Matrix user' });
    const application = await createApplication(api(), organization, { name: 'Matrix app', type: 'web' });

    const tokens = {} as World['tokens'];
    for (const person of ['owner', 'admin', 'viewer', 'nonMember', 'otherTenantMember'] as const) {
      tokens[person] = (await signInThroughConsole(stack, smtp, emails[person])).accessToken!;
    }
    const signedOut = await signInThroughConsole(stack, smtp, emails.revoked);
    tokens.revoked = signedOut.accessToken!;
    await signedOut.post('/console/api/sign_out').expect(204);
    // The owner signed in to the customer's application, not to the console: its token is not a member token.
    const callback = await loginByLink(stack.stack, smtp, application, { email: emails.owner, redirectUri: WEB_REDIRECT_URI });
    tokens.otherApp = (
      await exchangeWeb(stack.stack, application, {
        code: callback.searchParams.get('code')!,
        email: emails.owner,
        redirectUri: WEB_REDIRECT_URI,
      })
    ).access_token;

    // Every sign-in happened before this instant (and within this set-up's time, far less than MEMBER_REAUTH_SECONDS).
    const env = { API_KEY_CACHE_SECONDS: '0', MEMBER_RATE_LIMIT: '1000000' };
    recent = await startUnthrottledManagementApi({ clock: new ManualClock(), env });
    const later = new ManualClock();
    later.advance(recent.config.members.reauthSeconds + 1);
    stale = await startUnthrottledManagementApi({ clock: later, env });

    document = await servedOpenApi(recent.url);
    rows = accessRows(document);
    world = {
      url: recent.url,
      ...tenant,
      organizationId: organization.organizationId,
      otherTenantId: other.body.tenant.id,
      userId: user.id,
      applicationId: application.applicationId,
      clientSecret: application.clientSecret!,
      tokens,
    };
  }, CONSOLE_SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await stale?.close();
    await recent?.close();
    await stack?.close();
    await smtp.stop();
  });

  it('every route the app serves has a rule, but health (public) and the person route; each has a probe', () => {
    expectEveryRouteRuled(recent, rows);
  });

  it.each(CALLERS.map((caller) => [caller.label, caller]))(
    '%s gets on every route what its rule says',
    async (_, caller) => {
      const answers: string[] = [];
      const wanted: string[] = [];
      for (const row of rows) {
        const request = await probe(row, world, caller.label);
        const send = (path: string) => asMember(caller, request.method, path, request.body);
        const route = `${routeOf(row)}${row.query ? `?${row.query}` : ''}`;
        answers.push(`${route} → ${await describeAnswer(await send(request.path), send)}`);
        wanted.push(`${route} → ${expected(row, caller)}`);
      }
      expect(answers).toEqual(wanted);
    },
    300_000,
  );

  it('callers that were refused changed nothing; those admitted changed what they asked', async () => {
    const { found, expected: labels } = await writtenLabels(world, rows, CALLERS);
    expect(found).toEqual(labels);
  });

  it('GET /v2/me names the person and their tenants; an API key is refused', async () => {
    const me = await call(api(), 'get', '/me', world.tokens.owner).expect(200);
    expect(me.body).toEqual({
      email: expect.stringMatching(/^owner-/),
      memberships: [{ memberId: expect.any(String), tenantId: world.tenantId, tenantName: expect.any(String), plan: 'pro', role: 'owner' }],
    });
    expect((await call(api(), 'get', '/me', world.tokens.nonMember).expect(200)).body.memberships).toEqual([]);
    expectProblem(await call(api(), 'get', '/me', world.apiKey), {
      status: 403,
      code: 'member_token_required',
      detail: 'Only a console access token can do this',
    });
  });

  it('a viewer never receives a secret: not on any page it may read', async () => {
    const viewer = CALLERS.find((caller) => caller.label === 'member viewer')!;
    const readable = rows.filter((row) => row.method === 'GET' && expectedOutcome(row, viewer.caller!) === 'allowed');
    expect(readable.length).toBeGreaterThan(10);
    for (const row of readable) {
      const { path } = await probe(row, world, viewer.label);
      const response = await asMember(viewer, 'get', path).expect(successStatus(document, row));
      for (const secret of [world.clientSecret, world.apiKey])
        expect([path, JSON.stringify(response.body).includes(secret)]).toEqual([path, false]);
    }
  });

  describe('another instance caches member lookups', () => {
    const clock = new ManualClock();
    let second: RunningApp;

    beforeAll(async () => {
      second = await startUnthrottledManagementApi({ clock, env: { API_KEY_CACHE_SECONDS: '5' } });
    });
    afterAll(() => second?.close());

    const asOwner = (token: string) =>
      request(second.url).get('/api/v2/tenant/member').set('Authorization', `Bearer ${token}`).set('Sesame-Tenant', world.tenantId);

    /** Resolves when the second instance has handled a member's invalidation (its cache first, then this listener). */
    const removalReachesSecond = (memberId: string) =>
      new Promise<void>((resolve) =>
        second.app
          .get(CacheInvalidationBus)
          .subscribe((message) => message.kind === 'member' && message.memberId === memberId && resolve()),
      );

    it('a removed member is refused there as soon as the invalidation arrives; a token revoked at the auth API keeps working there at most API_KEY_CACHE_SECONDS', async () => {
      const email = uniqueEmail('cached');
      const member = await call(api(), 'post', '/tenant/member', world.apiKey, { email, role: 'admin' }).expect(201);
      const browser = await signInThroughConsole(stack, smtp, email);
      const token = browser.accessToken!;
      await asOwner(token).expect(200); // looked up there, and cached

      const reached = removalReachesSecond(member.body.id);
      await call(api(), 'delete', `/tenant/member/${member.body.id}`, world.apiKey).expect(204);
      await reached;
      expect((await asOwner(token).expect(403)).body.code).toBe('not_a_member');

      // Signing out revokes the token at the auth API, which publishes nothing: the cache time bounds it.
      await browser.post('/console/api/sign_out').expect(204);
      await request(second.url).get('/api/v2/me').set('Authorization', `Bearer ${token}`).expect(200);
      clock.advance(6);
      expect((await request(second.url).get('/api/v2/me').set('Authorization', `Bearer ${token}`).expect(401)).body.code).toBe(
        'invalid_member_token',
      );
    });
  });
});
