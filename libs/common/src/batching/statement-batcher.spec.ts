import { StatementBatcher } from './statement-batcher';

interface Batch {
  items: string[];
  answer(answers: string[]): void;
  fail(error: Error): void;
}

/** A batcher whose batches the test answers or fails, one by one; nothing waits on time. */
function controlledBatcher(options: { maxInFlight: number; maxBatch: number }) {
  const batches: Batch[] = [];
  const run = (items: string[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push({ items, answer: resolve, fail: reject });
    });
  return { batcher: new StatementBatcher<string, string>(run, options), batches };
}

describe('StatementBatcher', () => {
  it('runs an item at once and alone while fewer than maxInFlight batches are out', async () => {
    const { batcher, batches } = controlledBatcher({ maxInFlight: 1, maxBatch: 100 });
    const a = batcher.submit('a');
    expect(batches.map((batch) => batch.items)).toEqual([['a']]);
    batches[0].answer(['A']);
    expect(await a).toBe('A');
  });

  it('at maxInFlight, items wait and go out together, each answered by its position', async () => {
    const { batcher, batches } = controlledBatcher({ maxInFlight: 1, maxBatch: 100 });
    const a = batcher.submit('a');
    const b = batcher.submit('b');
    const c = batcher.submit('c');
    expect(batches.map((batch) => batch.items)).toEqual([['a']]);
    batches[0].answer(['A']);
    await a;
    expect(batches.map((batch) => batch.items)).toEqual([['a'], ['b', 'c']]);
    batches[1].answer(['B', 'C']);
    expect([await b, await c]).toEqual(['B', 'C']);
  });

  it('never merges equal items: each submission is run and answered on its own', async () => {
    const { batcher, batches } = controlledBatcher({ maxInFlight: 1, maxBatch: 100 });
    const first = batcher.submit('a');
    const second = batcher.submit('a');
    const third = batcher.submit('a');
    batches[0].answer(['won']);
    await first;
    expect(batches[1].items).toEqual(['a', 'a']);
    batches[1].answer(['lost', 'lost too']);
    expect([await first, await second, await third]).toEqual(['won', 'lost', 'lost too']);
  });

  it('splits the waiting items into batches of maxBatch, oldest first', async () => {
    const { batcher, batches } = controlledBatcher({ maxInFlight: 1, maxBatch: 2 });
    const answers = ['a', 'b', 'c', 'd'].map((item) => batcher.submit(item));
    batches[0].answer(['A']);
    await answers[0];
    expect(batches[1].items).toEqual(['b', 'c']);
    batches[1].answer(['B', 'C']);
    await answers[2];
    expect(batches[2].items).toEqual(['d']);
    batches[2].answer(['D']);
    expect(await Promise.all(answers)).toEqual(['A', 'B', 'C', 'D']);
  });

  it('a failed batch rejects its own items only, and the items behind it still go out', async () => {
    const { batcher, batches } = controlledBatcher({ maxInFlight: 1, maxBatch: 100 });
    const a = batcher.submit('a');
    const b = batcher.submit('b');
    batches[0].fail(new Error('connection lost'));
    await expect(a).rejects.toThrow('connection lost');
    batches[1].answer(['B']);
    expect(await b).toBe('B');
  });

  it('refuses limits below 1, which would leave items waiting for ever', () => {
    expect(() => new StatementBatcher(async () => [], { maxInFlight: 0, maxBatch: 1 })).toThrow(RangeError);
    expect(() => new StatementBatcher(async () => [], { maxInFlight: 1, maxBatch: 0 })).toThrow(RangeError);
  });
});
