import { ManualClock } from '@sesame/common';
import { CONSOLE_SETUP_TIMEOUT_MS, ConsoleBrowser, ConsoleStack, signInThroughConsole, startConsoleStack } from '../support/console';
import { uniqueEmail } from '../support/login';
import { call, PLATFORM_KEY } from '../support/management';
import { SmtpSink } from '../support/smtp-sink';

const MEMBER_LIMIT = 3;

/**
 * Console members are not API keys: each has a limit of their own (MEMBER_RATE_LIMIT a minute)
 * instead of the plan's, and never draws on the budget the tenant's keys share. On the Free plan
 * (here 2 requests a minute for the keys) the console stays usable, both ways round.
 */
describe('the members’ own rate limit', () => {
  const smtp = new SmtpSink();
  const clock = new ManualClock();
  let stack: ConsoleStack;
  let tenantId: string;
  let apiKey: string;
  let owner: ConsoleBrowser;
  let admin: ConsoleBrowser;

  beforeAll(async () => {
    await smtp.start();
    const generous = { minute: 1_000_000, hour: 1_000_000, day: 1_000_000 };
    stack = await startConsoleStack(smtp.url, {
      clock,
      env: {
        PLAN_LIMITS: JSON.stringify({ free: { minute: 2, hour: 100, day: 100 }, basic: generous, pro: generous, enterprise: generous }),
        MEMBER_RATE_LIMIT: String(MEMBER_LIMIT),
        GLOBAL_RATE_LIMIT: '10000000',
        MAIL_SWEEP_INTERVAL_SECONDS: '3600',
      },
    });
    const ownerEmail = uniqueEmail('limited-owner');
    const adminEmail = uniqueEmail('limited-admin');
    const created = await call(stack.origin, 'post', '/tenant', PLATFORM_KEY, { name: 'Free', plan: 'free', ownerEmail }).expect(201);
    tenantId = created.body.tenant.id;
    apiKey = created.body.apiKey.key;
    owner = await signInThroughConsole(stack, smtp, ownerEmail);
    // The owner invites the admin through the console (their requests count for them, not for the plan).
    await owner.post('/console/api/v2/tenant/member', { email: adminEmail, role: 'admin' }).set('Sesame-Tenant', tenantId).expect(201);
    admin = await signInThroughConsole(stack, smtp, adminEmail);
    clock.advance(61); // Every window starts empty.
  }, CONSOLE_SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await stack?.close();
    await smtp.stop();
  });

  const asMember = (browser: ConsoleBrowser) => browser.get('/console/api/v2/organization').set('Sesame-Tenant', tenantId);
  const asKey = () => call(stack.origin, 'get', '/organization', apiKey);
  const planUsed = async () =>
    (await call(stack.origin, 'get', '/tenant/usage', owner.accessToken!).set('Sesame-Tenant', tenantId).expect(200)).body.windows.minute
      .used;

  it('a busy console cannot starve the keys: members are refused at their own limit, the plan budget untouched', async () => {
    for (let i = 0; i < MEMBER_LIMIT; i++) {
      const response = await asMember(owner).expect(200);
      expect(response.headers['ratelimit-limit']).toBe(String(MEMBER_LIMIT));
      expect(response.headers['ratelimit-remaining']).toBe(String(MEMBER_LIMIT - 1 - i));
    }
    const refused = await asMember(owner).expect(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.body).toEqual(
      expect.objectContaining({
        code: 'rate_limited',
        scope: 'member',
        window: 'minute',
        limit: MEMBER_LIMIT,
        detail: `A console member may make ${MEMBER_LIMIT} requests per minute; retry in 60 seconds`,
      }),
    );

    await asKey().expect(200);
    await asKey().expect(200);
    expect((await asKey().expect(429)).body).toEqual(expect.objectContaining({ scope: 'plan', limit: 2 }));
  });

  it('the keys’ 429 does not lock the console: another member, and the first after a minute, work on', async () => {
    await asKey().expect(429);
    for (let i = 0; i < MEMBER_LIMIT; i++) await asMember(admin).expect(200);
    expect((await asMember(owner).expect(429)).body.scope).toBe('member');
    clock.advance(61);
    // A minute later the owner is back, and the keys' budget is still untouched by members.
    await asMember(owner).expect(200);
    expect(await planUsed()).toBe(0);
    await asKey().expect(200);
  });
});
