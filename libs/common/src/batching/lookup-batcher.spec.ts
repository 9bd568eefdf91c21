import { LookupBatcher } from './lookup-batcher';

interface Batch {
  keys: string[];
  answer(values: Record<string, number>): void;
  fail(error: Error): void;
}

/** A batcher over a lookup whose batches the test answers or fails, one by one; nothing waits on time. */
function controlledBatcher(options: { maxInFlight: number; maxBatch: number }) {
  const batches: Batch[] = [];
  const lookup = (keys: string[]) =>
    new Promise<Map<string, number>>((resolve, reject) => {
      batches.push({ keys, answer: (values) => resolve(new Map(Object.entries(values))), fail: reject });
    });
  return { batcher: new LookupBatcher<string, number>(lookup, options), batches };
}

describe('LookupBatcher', () => {
  it('sends a key at once and alone while fewer than maxInFlight batches are out', async () => {
    const { batcher, batches } = controlledBatcher({ maxInFlight: 2, maxBatch: 100 });
    const a = batcher.load('a');
    expect(batches.map((batch) => batch.keys)).toEqual([['a']]);
    const b = batcher.load('b');
    expect(batches.map((batch) => batch.keys)).toEqual([['a'], ['b']]);

    batches[1].answer({ b: 2 });
    batches[0].answer({ a: 1 });
    expect([await a, await b]).toEqual([1, 2]);
  });

  it('at maxInFlight, keys wait and go out together when a batch completes', async () => {
    const { batcher, batches } = controlledBatcher({ maxInFlight: 1, maxBatch: 100 });
    const a = batcher.load('a');
    const waiting = ['b', 'c', 'd'].map((key) => batcher.load(key));
    expect(batches).toHaveLength(1);

    batches[0].answer({ a: 1 });
    expect(await a).toBe(1);
    expect(batches[1].keys).toEqual(['b', 'c', 'd']);
    batches[1].answer({ b: 2, d: 4 }); // c was not found
    expect(await Promise.all(waiting)).toEqual([2, undefined, 4]);
  });

  it('sends a waiting key once, and its callers share the answer', async () => {
    const { batcher, batches } = controlledBatcher({ maxInFlight: 1, maxBatch: 100 });
    const a = batcher.load('a');
    const waiting = ['b', 'c', 'b'].map((key) => batcher.load(key));

    batches[0].answer({});
    expect(await a).toBeUndefined();
    expect(batches[1].keys).toEqual(['b', 'c']);
    batches[1].answer({ b: 2, c: 3 });
    expect(await Promise.all(waiting)).toEqual([2, 3, 2]);
  });

  it('does not join a batch already out: a key asked for again goes in the next batch', async () => {
    const { batcher, batches } = controlledBatcher({ maxInFlight: 1, maxBatch: 100 });
    const first = batcher.load('a');
    const again = batcher.load('a');
    expect(batches).toHaveLength(1);

    batches[0].answer({ a: 1 });
    expect(await first).toBe(1);
    expect(batches[1].keys).toEqual(['a']);
    batches[1].answer({ a: 10 });
    expect(await again).toBe(10);
  });

  it('splits the waiting keys into batches of maxBatch, oldest first', async () => {
    const { batcher, batches } = controlledBatcher({ maxInFlight: 1, maxBatch: 2 });
    const keys = ['k0', 'k1', 'k2', 'k3', 'k4', 'k5'];
    const loads = keys.map((key) => batcher.load(key));
    const answerAll = (batch: Batch) => batch.answer(Object.fromEntries(batch.keys.map((key) => [key, keys.indexOf(key)])));

    answerAll(batches[0]);
    await loads[0];
    answerAll(batches[1]);
    await loads[2];
    answerAll(batches[2]);
    await loads[4];
    answerAll(batches[3]);
    expect(await Promise.all(loads)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(batches.map((batch) => batch.keys)).toEqual([['k0'], ['k1', 'k2'], ['k3', 'k4'], ['k5']]);
  });

  it('a failed batch rejects each of its callers with the error, and no one else', async () => {
    const { batcher, batches } = controlledBatcher({ maxInFlight: 2, maxBatch: 100 });
    const a = batcher.load('a');
    const b = batcher.load('b');
    const failing = Promise.allSettled(['c', 'c', 'd'].map((key) => batcher.load(key)));

    batches[0].answer({ a: 1 });
    expect(await a).toBe(1);
    expect(batches[2].keys).toEqual(['c', 'd']);
    const error = new Error('connection lost');
    batches[2].fail(error);
    expect(await failing).toEqual([
      { status: 'rejected', reason: error },
      { status: 'rejected', reason: error },
      { status: 'rejected', reason: error },
    ]);
    batches[1].answer({ b: 2 });
    expect(await b).toBe(2);
  });

  it('after a failed batch, the keys waiting behind it still go out', async () => {
    const { batcher, batches } = controlledBatcher({ maxInFlight: 1, maxBatch: 100 });
    const a = batcher.load('a');
    const waiting = ['b', 'c'].map((key) => batcher.load(key));

    batches[0].fail(new Error('statement timeout'));
    await expect(a).rejects.toThrow('statement timeout');
    expect(batches[1].keys).toEqual(['b', 'c']);
    batches[1].answer({ b: 2, c: 3 });
    expect(await Promise.all(waiting)).toEqual([2, 3]);

    // And, with nothing out any more, the next key goes at once again.
    void batcher.load('d');
    expect(batches[2].keys).toEqual(['d']);
  });

  it('refuses limits below 1, which would leave keys waiting for ever', () => {
    const lookup = async () => new Map<string, number>();
    expect(() => new LookupBatcher(lookup, { maxInFlight: 0, maxBatch: 100 })).toThrow(RangeError);
    expect(() => new LookupBatcher(lookup, { maxInFlight: 1, maxBatch: 0 })).toThrow(RangeError);
  });
});
