import { BatchedCalls } from './batched-calls';

/** A call that answers when told to, recording the batches it was given. */
function heldCall() {
  const batches: number[][] = [];
  const pending: (() => void)[] = [];
  const call = (items: number[]) => {
    batches.push(items);
    return new Promise<number[]>((resolve) => pending.push(() => resolve(items.map((item) => item * 10))));
  };
  const answer = async () => {
    pending.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { batches, call, answer };
}

describe('BatchedCalls', () => {
  it('sends an item at once when no call is under way, and gathers those that come meanwhile into the next call', async () => {
    const { batches, call, answer } = heldCall();
    const calls = new BatchedCalls(call);
    const results = [1, 2, 3].map((item) => calls.run(item));
    expect(batches).toEqual([[1]]);
    await answer();
    expect(batches).toEqual([[1], [2, 3]]);
    await answer();
    await expect(Promise.all(results)).resolves.toEqual([10, 20, 30]);
  });

  it('makes batches of at most the given size', async () => {
    const { batches, call, answer } = heldCall();
    const calls = new BatchedCalls(call, 2);
    const results = [1, 2, 3, 4, 5].map((item) => calls.run(item));
    for (let i = 0; i < 3; i++) await answer();
    expect(batches).toEqual([[1], [2, 3], [4, 5]]);
    await expect(Promise.all(results)).resolves.toEqual([10, 20, 30, 40, 50]);
  });

  it('fails every item of a failed call, and goes on with the next ones', async () => {
    let fail = true;
    const calls = new BatchedCalls(async (items: number[]) => {
      if (fail) throw new Error('Postgres away');
      return items;
    });
    const first = calls.run(1);
    fail = false;
    await expect(first).rejects.toThrow('Postgres away');
    await expect(calls.run(2)).resolves.toBe(2);
  });
});
