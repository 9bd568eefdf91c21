import { ManualClock, SesameConfig } from '@sesame/common';
import { OrganizationRepository } from '@sesame/entities';
import Redis from 'ioredis';
import { TALLY_FLUSH_MS, UsageCounter } from './usage-counter';

type Command = [string, ...unknown[]];

/** A Redis whose MULTI records its commands, one array per transaction, and can be made to fail. */
function recordingRedis() {
  const transactions: Command[][] = [];
  const state = { failing: false };
  const redis = {
    multi() {
      const commands: Command[] = [];
      const transaction = {
        hincrby: (...args: unknown[]) => (commands.push(['hincrby', ...args]), transaction),
        pexpireat: (...args: unknown[]) => (commands.push(['pexpireat', ...args]), transaction),
        exec: async () => {
          if (state.failing) throw new Error('Connection is closed.');
          transactions.push(commands);
          return [];
        },
      };
      return transaction;
    },
  };
  return { redis: redis as unknown as Redis, transactions, state };
}

const config = { redis: { prefix: 'p' } } as SesameConfig;
const organizations = {} as OrganizationRepository;
const AT = new Date('2033-05-10T10:32:15.000Z');
const day = (iso: string) => new Date(iso).getTime();

describe('UsageCounter', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function counter() {
    const { redis, transactions, state } = recordingRedis();
    return { usage: new UsageCounter(redis, config, new ManualClock(AT), organizations), transactions, state };
  }

  it('writes an event at once, in its minute and its hour', async () => {
    const { usage, transactions } = counter();
    await usage.record('t1', 'logins');
    expect(transactions).toEqual([
      [
        ['hincrby', 'p:usage:{tenant:t1}:minute:2033-05-10', 'logins:632', 1],
        ['pexpireat', 'p:usage:{tenant:t1}:minute:2033-05-10', day('2033-05-12T00:00:00Z')],
        ['hincrby', 'p:usage:{tenant:t1}:hour:2033-05-10', 'logins:10', 1],
        ['pexpireat', 'p:usage:{tenant:t1}:hour:2033-05-10', day('2033-06-11T00:00:00Z')],
      ],
    ]);
  });

  it('tallies requests in memory and writes them together once TALLY_FLUSH_MS has passed', async () => {
    const { usage, transactions } = counter();
    for (let i = 0; i < 5; i++) usage.tally('t1', 'apiRequests');
    usage.tally('t1', 'memberRequests');
    usage.tally('t2', 'apiRequests');
    await jest.advanceTimersByTimeAsync(TALLY_FLUSH_MS - 1);
    expect(transactions).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(transactions).toHaveLength(1);
    const increments = transactions[0].filter(([command]) => command === 'hincrby');
    expect(increments).toEqual([
      ['hincrby', 'p:usage:{tenant:t1}:minute:2033-05-10', 'apiRequests:632', 5],
      ['hincrby', 'p:usage:{tenant:t1}:hour:2033-05-10', 'apiRequests:10', 5],
      ['hincrby', 'p:usage:{tenant:t1}:minute:2033-05-10', 'memberRequests:632', 1],
      ['hincrby', 'p:usage:{tenant:t1}:hour:2033-05-10', 'memberRequests:10', 1],
      ['hincrby', 'p:usage:{tenant:t2}:minute:2033-05-10', 'apiRequests:632', 1],
      ['hincrby', 'p:usage:{tenant:t2}:hour:2033-05-10', 'apiRequests:10', 1],
    ]);
    // Nothing is left to write, and no timer is left behind.
    expect(jest.getTimerCount()).toBe(0);
  });

  it('writes what is tallied when asked (a history read) and at shutdown, not twice', async () => {
    const { usage, transactions } = counter();
    usage.tally('t1', 'apiRequests');
    await usage.flush();
    expect(transactions).toHaveLength(1);
    usage.tally('t1', 'apiRequests');
    await usage.beforeApplicationShutdown();
    expect(transactions).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(TALLY_FLUSH_MS);
    await usage.flush();
    expect(transactions).toHaveLength(2);
  });

  it('loses the tallied counts when Redis is away, without failing anyone, and goes on counting afterwards', async () => {
    const { usage, transactions, state } = counter();
    state.failing = true;
    usage.tally('t1', 'apiRequests');
    await expect(usage.flush()).resolves.toBeUndefined();
    state.failing = false;
    usage.tally('t1', 'apiRequests');
    await usage.flush();
    expect(transactions).toHaveLength(1);
    expect(transactions[0][0]).toEqual(['hincrby', 'p:usage:{tenant:t1}:minute:2033-05-10', 'apiRequests:632', 1]);
  });
});
