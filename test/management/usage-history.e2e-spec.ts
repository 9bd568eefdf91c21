import { ManualClock } from '@sesame/common';
import { CONSOLE_SETUP_TIMEOUT_MS, ConsoleBrowser, ConsoleStack, signInThroughConsole, startConsoleStack } from '../support/console';
import { authenticateDirect, mailQueueOf, NO_SWEEPS, tokenIn, useLink, watchJobs } from '../support/direct-auth';
import { ApplicationFixture, createApplication, createOrganization } from '../support/fixtures';
import { uniqueEmail } from '../support/login';
import { call, expectProblem, PLATFORM_KEY, UNTHROTTLED_ENV, validationProblem } from '../support/management';
import { SmtpSink } from '../support/smtp-sink';

type Counts = { apiRequests: number; memberRequests: number; logins: number; mailsSent: number; mailsFailed: number };
type Point = Counts & { start: string };
const ZERO: Counts = { apiRequests: 0, memberRequests: 0, logins: 0, mailsSent: 0, mailsFailed: 0 };
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The start of the minute, hour or UTC day a time falls in, as the API writes it. */
const startOf = (time: number, size: number) => new Date(time - (time % size)).toISOString();

/** GET /v2/tenant/usage/history counts what was done: requests of keys and of members, logins, mails sent and failed, per minute, hour and day. */
describe('usage history', () => {
  const smtp = new SmtpSink();
  // Real time to start with (a clock far from it would give the run's first signing key a date other files' clocks disagree with).
  const clock = new ManualClock();
  let stack: ConsoleStack;
  let tenantId: string;
  let apiKey: string;
  let app: ApplicationFixture;
  let owner: ConsoleBrowser;
  let jobs: ReturnType<typeof watchJobs>;

  beforeAll(async () => {
    await smtp.start();
    stack = await startConsoleStack(smtp.url, { clock, env: { ...UNTHROTTLED_ENV, ...NO_SWEEPS, MAIL_ATTEMPTS: '1' } });
    const ownerEmail = uniqueEmail('usage-owner');
    const created = await call(stack.origin, 'post', '/tenant', PLATFORM_KEY, { name: 'Counted', plan: 'pro', ownerEmail }).expect(201);
    tenantId = created.body.tenant.id;
    apiKey = created.body.apiKey.key;
    app = await createApplication(stack.origin, await createOrganization(stack.origin, { tenantId, apiKey }), { type: 'web' });
    owner = await signInThroughConsole(stack, smtp, ownerEmail);
    jobs = watchJobs(mailQueueOf(stack.stack.worker));
  }, CONSOLE_SETUP_TIMEOUT_MS);
  afterAll(async () => {
    jobs?.stop();
    await stack?.close();
    await smtp.stop();
  });

  const history = (query: Record<string, string> = {}) =>
    call(stack.origin, 'get', '/tenant/usage/history', apiKey).query(query).expect(200);
  const sum = (points: Point[]): Counts =>
    points.reduce(
      (total, point) => ({
        apiRequests: total.apiRequests + point.apiRequests,
        memberRequests: total.memberRequests + point.memberRequests,
        logins: total.logins + point.logins,
        mailsSent: total.mailsSent + point.mailsSent,
        mailsFailed: total.mailsFailed + point.mailsFailed,
      }),
      ZERO,
    );

  async function login(email: string, refuse: boolean): Promise<void> {
    if (refuse) smtp.refuseNext(1);
    const started = await authenticateDirect(stack.stack.auth.url, app, {
      email,
      redirect_uri: 'http://localhost:4000/callback',
      state: 's',
    }).expect(200);
    expect(await jobs.settled(started.body.loginAttemptId)).toBe(refuse ? 'failed' : 'completed');
    if (!refuse) await useLink(stack.stack.auth.url, tokenIn(await smtp.next(email))).expect(303);
  }

  let monthTotals: Counts;

  it('the numbers match the requests, logins and e-mails made, minute by minute', async () => {
    const before = sum((await history({ range: '30d', granularity: 'day' })).body.points);
    clock.advance(120); // a minute of its own: what follows is counted in it alone
    const now = clock.now().getTime();
    for (let i = 0; i < 3; i++) await call(stack.origin, 'get', '/organization', apiKey).expect(200);
    for (let i = 0; i < 2; i++) await owner.get('/console/api/v2/organization').set('Sesame-Tenant', tenantId).expect(200);
    await login(uniqueEmail('first'), false);
    await login(uniqueEmail('second'), false);
    await login(uniqueEmail('refused'), true);

    const minutes = (await history({ range: '24h', granularity: 'minute' })).body;
    expect(minutes).toEqual(expect.objectContaining({ tenantId, range: '24h', granularity: 'minute' }));
    expect(minutes.points).toHaveLength(1440);
    // This request is counted too: it is the fourth request of a key in this minute.
    expect(minutes.points.at(-1)).toEqual({
      start: startOf(now, MINUTE),
      apiRequests: 4,
      memberRequests: 2,
      logins: 2,
      mailsSent: 2,
      mailsFailed: 1,
    });
    expect(minutes.points.at(-2)).toEqual({ start: startOf(now - MINUTE, MINUTE), ...ZERO });
    expect(minutes.points[0].start).toBe(startOf(now - 1439 * MINUTE, MINUTE));
    expect(minutes.totals).toEqual(sum(minutes.points));

    const hours = (await history({ range: '24h', granularity: 'hour' })).body;
    expect(hours.points).toHaveLength(24);
    expect(hours.points.at(-1).start).toBe(startOf(now, HOUR));
    expect(hours.totals).toEqual({ ...minutes.totals, apiRequests: minutes.totals.apiRequests + 1 });

    const defaults = (await history()).body;
    expect([defaults.range, defaults.granularity, defaults.points.length]).toEqual(['24h', 'minute', 1440]);
    const month = (await history({ range: '30d' })).body;
    expect(month.granularity).toBe('day');
    expect(month.points).toHaveLength(30);
    expect(month.points.at(-1).start).toBe(startOf(now, DAY));
    const made = { apiRequests: 7, memberRequests: 2, logins: 2, mailsSent: 2, mailsFailed: 1 };
    expect(month.totals).toEqual(
      Object.fromEntries(Object.entries(before).map(([metric, count]) => [metric, count + made[metric as keyof Counts]])),
    );
    // Everything was made in the last few minutes: today, or yesterday just before midnight.
    expect(sum(month.points.slice(0, -2))).toEqual(ZERO);
    monthTotals = month.totals;
  });

  it('a day later the counts are in the past; minutes older than 24 hours are gone from the minute view', async () => {
    clock.advance(24 * 3600);
    const now = clock.now().getTime();
    const month = (await history({ range: '30d', granularity: 'day' })).body;
    expect(month.points.at(-1).start).toBe(startOf(now, DAY));
    expect(month.totals).toEqual({ ...monthTotals, apiRequests: monthTotals.apiRequests + 1 });
    const minutes = (await history({ range: '24h', granularity: 'minute' })).body;
    expect(minutes.totals).toEqual({ ...ZERO, apiRequests: 2 });
    const hourly = (await history({ range: '30d', granularity: 'hour' })).body;
    expect(hourly.points).toHaveLength(720);
    expect(hourly.totals.logins).toBe(month.totals.logins);
  });

  it('refuses a granularity the range is not kept at', async () => {
    expectProblem(
      await call(stack.origin, 'get', '/tenant/usage/history', apiKey).query({ range: '30d', granularity: 'minute' }),
      validationProblem([{ field: 'granularity', messages: ['granularity must be one of hour, day for the range 30d'] }]),
    );
    expectProblem(
      await call(stack.origin, 'get', '/tenant/usage/history', apiKey).query({ range: '7d' }),
      validationProblem([{ field: 'range', messages: ['range must be one of the following values: 24h, 30d'] }]),
    );
  });
});
