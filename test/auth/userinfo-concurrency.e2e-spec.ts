import { randomBytes } from 'node:crypto';
import { LookupBatcher, ManualClock } from '@sesame/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AccessTokensService } from '../../apps/auth-api/src/tokens/access-tokens.service';
import { RunningApp, startAuthApi, startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth } from '../support/login';
import { SmtpSink } from '../support/smtp-sink';
import { exchangeWeb, userInfo, webCode } from '../support/tokens';

/** What a userinfo request should get: the token's user, or 401. */
interface Expected {
  token: string;
  user?: { sub: string; email: string };
}

/** The part of the app's pg pool this test watches. */
interface PoolQueries {
  query(config: { name?: string; values?: unknown[] }): Promise<unknown>;
}

/** The service's private batcher, which this test watches to know when every request has queued. */
interface WithTokenLookups {
  tokenLookups: LookupBatcher<string, unknown>;
}

/**
 * Concurrent uncached userinfo requests share their database lookups (LookupBatcher): whatever
 * batch a request lands in, it must get its own token's answer. The requests go to a second auth
 * API without the userinfo cache, so that every one of them reaches the batcher.
 *
 * Batching is made certain, not left to how fast the server answers: the first token query is held
 * until every request has asked the batcher, so all the others wait and go out together after it.
 */
describe('userinfo under concurrent requests', () => {
  const smtp = new SmtpSink();
  const clock = new ManualClock(new Date('2034-03-01T09:00:00.000Z'));
  let stack: Stack;
  let batched: RunningApp;
  let web: ApplicationFixture;

  beforeAll(async () => {
    await smtp.start();
    const env = { ACCESS_TOKEN_TTL_SECONDS: '600', MAIL_SWEEP_INTERVAL_SECONDS: '3600' };
    stack = await startStack(smtp.url, { clock, env });
    batched = await startAuthApi({ clock, env: { ...env, ACCESS_TOKEN_CACHE_SECONDS: '0' } });
    const tenant = await createTenant(stack.management.url, 'pro');
    web = await createApplication(stack.management.url, await createOrganization(stack.management.url, tenant), { type: 'web' });
  });

  afterAll(async () => {
    await batched.close();
    await stack.close();
    await smtp.stop();
  });

  const signIn = async (): Promise<Required<Expected>> => {
    const issued = await webCode(stack, smtp, web);
    const { access_token } = await exchangeWeb(stack, web, issued);
    const { sub } = (await userInfo(stack.auth.url, access_token).expect(200)).body;
    return { token: access_token, user: { sub, email: issued.email } };
  };
  const revoke = (token: string) =>
    request(stack.auth.url).post('/api/v1/revoke').set('Authorization', basicAuth(web)).type('form').send({ token }).expect(200);
  const block = (sub: string) =>
    request(stack.management.url)
      .post(`/api/v2/organization/${web.organizationId}/user/${sub}`)
      .set('Authorization', `Bearer ${web.apiKey}`)
      .send({ blocked: true })
      .expect(200);

  /**
   * Holds the app's first find-tokens query until the batcher has been asked `expected` times, and
   * records every find-tokens query's number of tokens. queryPrepared's queries go through the
   * pool's query() as configs with a name.
   */
  const holdFirstBatchUntilQueued = (app: RunningApp, expected: number): number[] => {
    const batcher = (app.app.get(AccessTokensService) as unknown as WithTokenLookups).tokenLookups;
    const pool = (app.app.get(DataSource).driver as unknown as { master: PoolQueries }).master;
    let asked = 0;
    let allQueued!: () => void;
    const queued = new Promise<void>((resolve) => (allQueued = resolve));
    const load = batcher.load.bind(batcher);
    jest.spyOn(batcher, 'load').mockImplementation((key) => {
      // load() queues the key before it returns, so the last call means every request is waiting.
      const answer = load(key);
      if (++asked === expected) allQueued();
      return answer;
    });
    const query = pool.query.bind(pool);
    const batchSizes: number[] = [];
    jest.spyOn(pool, 'query').mockImplementation(async (config) => {
      if (config.name !== 'find-tokens') return query(config);
      batchSizes.push((config.values![0] as Buffer[]).length);
      if (batchSizes.length === 1) await queued;
      return query(config);
    });
    return batchSizes;
  };

  it('each request gets its own answer: valid, revoked, expired, blocked and unknown tokens mixed', async () => {
    const expired = [await signIn(), await signIn(), await signIn()];
    clock.advance(601); // past their ACCESS_TOKEN_TTL_SECONDS
    const valid = [await signIn(), await signIn(), await signIn(), await signIn(), await signIn()];
    const revoked = [await signIn(), await signIn()];
    for (const { token } of revoked) await revoke(token);
    const blocked = await signIn();
    await block(blocked.user.sub);
    const unknown = Array.from({ length: 4 }, () => randomBytes(32).toString('base64url'));

    const refused = [...expired, ...revoked, blocked].map(({ token }) => token).concat(unknown);
    const cases: Expected[] = [...valid, ...refused.map((token) => ({ token }))];
    // Each token 8 times, interleaved, so that batches mix tokens of every kind and may carry one twice.
    const requests = Array.from({ length: 8 }, () => cases).flat();
    const batchSizes = holdFirstBatchUntilQueued(batched, requests.length);
    const responses = await Promise.all(requests.map(({ token }) => userInfo(batched.url, token)));

    const answers = responses.map((response) =>
      response.status === 200 ? { status: 200, user: { sub: response.body.sub, email: response.body.email } } : { status: response.status },
    );
    expect(answers).toEqual(requests.map(({ user }) => (user ? { status: 200, user } : { status: 401 })));
    // The first request's token went out alone; every token (the first one again, for its other
    // requests) waited for that query and went out in the next.
    expect(batchSizes).toEqual([1, cases.length]);
  });
});
