import { Loaded, TtlCache } from './ttl-cache';

/** A lookup the test finishes when it wants, to put a delete while it is out. */
function pendingLookup<V>() {
  let finish!: (loaded: Loaded<V>) => void;
  const promise = new Promise<Loaded<V>>((resolve) => (finish = resolve));
  return { load: () => promise, finish };
}

describe('TtlCache', () => {
  it('answers until the entry expires, then forgets it', () => {
    const cache = new TtlCache<string, number>(10);
    cache.put('a', 1, 1000);
    expect(cache.get('a', 999)).toBe(1);
    expect(cache.get('a', 1000)).toBeUndefined();
    expect(cache.get('a', 0)).toBeUndefined();
  });

  it('drops the oldest entry when full', () => {
    const cache = new TtlCache<string, number>(2);
    cache.put('a', 1, 1000);
    cache.put('b', 2, 1000);
    cache.put('c', 3, 1000);
    expect([cache.get('a', 0), cache.get('b', 0), cache.get('c', 0)]).toEqual([undefined, 2, 3]);
  });

  it('deletes one entry, or every entry that matches', () => {
    const cache = new TtlCache<string, { org: string }>(10);
    cache.put('a', { org: 'x' }, 1000);
    cache.put('b', { org: 'y' }, 1000);
    cache.put('c', { org: 'x' }, 1000);
    cache.delete('b');
    cache.deleteWhere((value) => value.org === 'x');
    expect([cache.get('a', 0), cache.get('b', 0), cache.get('c', 0)]).toEqual([undefined, undefined, undefined]);
  });

  it('loads a missing value once and answers the next request from the cache until keepUntil', async () => {
    const cache = new TtlCache<string, number | null>(10);
    const load = jest.fn(async () => ({ value: null, keepUntil: 1000 }));
    expect(await cache.getOrLoad('a', 0, load)).toBeNull();
    expect(await cache.getOrLoad('a', 999, load)).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
    await cache.getOrLoad('a', 1000, load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not keep an answer whose keepUntil is null or already past (a cache time of 0)', async () => {
    const cache = new TtlCache<string, number>(10);
    await cache.getOrLoad('a', 500, async () => ({ value: 1, keepUntil: null }));
    await cache.getOrLoad('b', 500, async () => ({ value: 2, keepUntil: 500 }));
    expect([cache.get('a', 0), cache.get('b', 0)]).toEqual([undefined, undefined]);
  });

  it('keeps nothing when the lookup fails', async () => {
    const cache = new TtlCache<string, number>(10);
    await expect(cache.getOrLoad('a', 0, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(cache.get('a', 0)).toBeUndefined();
  });

  it('does not keep an answer looked up before a delete: it may predate the change the delete was for', async () => {
    const cache = new TtlCache<string, number>(10);
    const lookup = pendingLookup<number>();
    const answer = cache.getOrLoad('a', 0, lookup.load);
    cache.delete('a');
    lookup.finish({ value: 1, keepUntil: 1000 });
    expect(await answer).toBe(1);
    expect(cache.get('a', 0)).toBeUndefined();
    expect(await cache.getOrLoad('a', 0, async () => ({ value: 2, keepUntil: 1000 }))).toBe(2);
    expect(cache.get('a', 0)).toBe(2);
  });

  it('counts a deleteWhere as a delete, whether or not anything matched', async () => {
    const cache = new TtlCache<string, number>(10);
    const lookup = pendingLookup<number>();
    const answer = cache.getOrLoad('a', 0, lookup.load);
    cache.deleteWhere(() => false);
    lookup.finish({ value: 1, keepUntil: 1000 });
    await answer;
    expect(cache.get('a', 0)).toBeUndefined();
  });
});
